local t = pi.test

it("lists the extension commands in a picker", function()
  t.answer.cancel()
  t.send("/commands")
  local dialog = t.ui_calls("select")[1]
  expect(dialog.title).to_equal("Available Commands")
  expect(dialog.options).to_contain("--- Extensions ---")
  expect(dialog.options).to_contain("/commands - List available slash commands")
end)

it("says so when a source has no commands", function()
  t.send("/commands skill")
  expect(t.ui_calls("notify")[1].message).to_equal("No skill commands found")
end)
