local t = pi.test

it("shows the length of the system prompt when a run starts", function()
  t.model.reply("ok")
  t.send("hi")
  local status = t.ui_calls("setStatus")[1]
  expect(status.statusKey).to_equal("system-prompt")
  expect(status.statusText).to_match("^System: %d+ chars$")
end)
