local t = pi.test

it("says where to define presets when there are none", function()
  t.send("/preset")
  expect(t.ui_calls("notify")[1].notifyType).to_equal("warning")
  expect(t.ui_calls("notify")[1].message).to_match("^No presets defined")
end)
