local t = pi.test

it("runs bash commands through its spawn hook", function()
  t.model.tool("bash", { command = "echo hook=$PI_SPAWN_HOOK" })
  t.model.reply("done")
  t.send("check the hook")
  expect(t.tool_calls()[1].result).to_contain("hook=1")
end)
