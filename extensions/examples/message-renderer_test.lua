local t = pi.test

it("posts a status report into the conversation", function()
  t.send("/report warning: disk almost full")
  local messages = t.messages()
  expect(messages[#messages]).to_have_shape({
    role = "custom", customType = "status-report", content = "disk almost full",
    details = { level = "warning" },
  })
end)
