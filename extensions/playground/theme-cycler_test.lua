local t = pi.test

it("switches to a named theme and shows it in the footer", function()
  t.send("/theme light")
  local themes, status = t.ui_calls("setTheme"), t.ui_calls("setStatus")
  expect(themes[#themes].name).to_equal("light")
  expect(status[#status].statusText).to_contain("light")
end)

it("names a theme it cannot use", function()
  t.start()
  local before = #t.ui_calls("setStatus")
  t.send("/theme no-such-theme")
  expect(#t.ui_calls("setStatus")).to_equal(before)
  local notes = t.ui_calls("notify")
  expect(notes[#notes].notifyType).to_equal("error")
end)
