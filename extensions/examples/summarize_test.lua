local t = pi.test

it("says so when there is nothing to summarise", function()
  t.send("/summarize")
  expect(t.ui_calls("notify")[1].message).to_equal("No conversation text found")
end)
