local t = pi.test

it("registers /snake", function()
  expect(t.commands()).to_contain({ name = "snake" })
end)
