local t = pi.test

it("follows the system appearance at start (light without macOS)", function()
  t.start()
  local themes = t.ui_calls("setTheme")
  expect(#themes).to_equal(1)
  expect(themes[1].name).to_match("^%a+$")
  expect(t.commands()).to_equal({})
end)
