local t = pi.test

it("loads and lets tools run", function()
  t.model.tool("bash", { command = "echo one" })
  t.model.reply("done")
  t.send("count")
  expect(t.tool_calls()[1].result).to_contain("one")
end)
