local t = pi.test

it("registers /overlay-test", function()
  expect(t.commands()).to_contain({ name = "overlay-test" })
end)
