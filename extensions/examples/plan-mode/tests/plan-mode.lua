local t = pi.test

it("toggles plan mode with /plan and limits the tools", function()
  t.send("/plan")
  expect(t.ui_calls("notify")[1].message).to_match("^Plan mode enabled%. Tools: read, bash")
  expect(t.tools()).never.to_contain("write")
  t.send("/plan")
  expect(t.ui_calls("notify")[2].message).to_equal("Plan mode disabled. Full access restored.")
  expect(t.tools()).to_contain("write")
end)

it("has no todos before a plan", function()
  t.send("/todos")
  expect(t.ui_calls("notify")[1].message).to_equal("No todos. Create a plan first with /plan")
end)
