local t = pi.test

it("posts a status update into the conversation", function()
  t.send("/status warn disk almost full")
  local messages = t.messages()
  expect(messages[#messages]).to_have_shape({
    role = "custom", customType = "status-update", content = "disk almost full",
    details = { level = "warn" },
  })
end)

it("sends an info update when no level is given", function()
  t.send("/status all good")
  local messages = t.messages()
  expect(messages[#messages]).to_have_shape({ customType = "status-update", content = "all good", details = { level = "info" } })
end)
