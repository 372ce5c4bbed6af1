local t = pi.test

it("queues /reload-runtime when the model calls its tool", function()
  t.model.tool("reload_runtime", {})
  t.model.reply("done")
  t.send("reload please")
  expect(t.tool_calls()[1].result).to_equal("Queued /reload-runtime as a follow-up command.")
  expect(t.commands()).to_contain({ name = "reload-runtime" })
end)
