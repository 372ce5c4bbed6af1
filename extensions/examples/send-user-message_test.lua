local t = pi.test

it("sends /ask text to the model as the user", function()
  t.model.reply("Paris.")
  t.send("/ask capital of France?")
  local sent = t.model.requests()[1].messages
  expect(sent[#sent].text).to_equal("capital of France?")
end)

it("shows the usage for an empty message", function()
  t.send("/ask")
  expect(t.ui_calls("notify")[1]).to_have_shape({ message = "Usage: /ask <message>", notifyType = "warning" })
end)
