local t = pi.test

it("reports a cancelled question to the model", function()
  t.model.tool("question", { question = "Which?", options = { { label = "A" }, { label = "B" } } })
  t.model.reply("ok")
  t.send("ask me")
  local call = t.tool_calls()[1]
  expect(call.result).to_equal("User cancelled the selection")
  expect(call.details.options).to_equal({ "A", "B" })
end)

