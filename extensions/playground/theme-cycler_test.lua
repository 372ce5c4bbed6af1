local t = pi.test

it("registers /theme", function()
  expect(t.commands()).to_contain({ name = "theme" })
end)
