local t = pi.test

it("switches the indicator by name and refuses unknown ones", function()
  t.send("/working-indicator dot")
  expect(t.ui_calls("notify")[1].message).to_equal("Working indicator set to: static dot")
  t.send("/working-indicator bogus")
  expect(t.ui_calls("notify")[2].message).to_equal("Usage: /working-indicator [dot|pulse|none|spinner|reset]")
end)
