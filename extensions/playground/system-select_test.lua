local t = pi.test

it("goes back to the default prompt with /system default", function()
  t.send("/system default")
  expect(t.ui_calls("notify")[1].message).to_equal("Back to pi's default system prompt and tools")
end)
