local t = pi.test

it("names the session and shows the name", function()
  t.send("/session-name")
  expect(t.ui_calls("notify")[1].message).to_equal("No session name set")
  t.send("/session-name  Release prep ")
  expect(t.ui_calls("notify")[2].message).to_equal("Session named: Release prep")
  expect(t.entries("session_info")).to_contain({ name = "Release prep" })
  t.send("/session-name")
  expect(t.ui_calls("notify")[3].message).to_equal("Session: Release prep")
end)
