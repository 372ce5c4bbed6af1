local t = pi.test

it("sets its working message and indicator at start", function()
  t.send("/reload")
  expect(t.ui_calls("setWorkingMessage")[1].message).to_contain("Working... (custom)")
  expect(t.ui_calls("setWorkingIndicator")[1].frames[1]).to_contain("●")
end)
