local t = pi.test

it("registers /damage-control", function()
  expect(t.commands()).to_contain({ name = "damage-control" })
end)
