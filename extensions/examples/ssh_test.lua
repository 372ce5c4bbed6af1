local t = pi.test

it("stays local without --ssh", function()
  t.model.tool("bash", { command = "echo local" })
  t.model.reply("ok")
  t.send("run")
  expect(t.tool_calls()[1].result).to_contain("local")
  expect(t.ui_calls("notify")).to_equal({})
end)
