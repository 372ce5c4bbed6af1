local t = pi.test

it("watches its trigger file from the start", function()
  t.start()
  expect(t.ui_calls("notify")[1].message).to_match("^Watching .+")
end)
