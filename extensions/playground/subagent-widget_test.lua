local t = pi.test

it("shows the usage of /sub without a task", function()
  t.send("/sub")
  expect(t.ui_calls("notify")[1].message).to_equal("Usage: /sub <task>")
end)
