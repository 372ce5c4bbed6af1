local t = pi.test

it("restores the built-in header on /builtin-header", function()
  t.send("/builtin-header")
  expect(t.ui_calls("notify")[1].message).to_equal("Built-in header restored")
end)
