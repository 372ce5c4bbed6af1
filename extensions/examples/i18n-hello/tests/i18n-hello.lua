local t = pi.test

it("greets in English by default", function()
  t.send("/hello Ann")
  local notes = t.ui_calls("notify")
  expect(notes[1].message).to_equal("Hello, Ann!")
  expect(#notes).to_equal(2)
  expect(t.commands()).to_contain({ name = "hello", description = "Say hello in your language" })
end)
