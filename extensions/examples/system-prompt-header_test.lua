local t = pi.test

it("shows the length of the system prompt while the session runs", function()
  t.model.reply("ok")
  t.send("hi")
  local status = t.ui_calls("setStatus")[1]
  expect(status.statusKey).to_equal("system-prompt")
  local length = #t.model.requests()[1].system_prompt
  expect(status.statusText).to_equal(string.format("System: %d chars", length))
  t.send("/quit")
  local cleared = t.ui_calls("setStatus")[2]
  expect(cleared).to_have_shape({ statusKey = "system-prompt", statusText = "nil" })
end)
