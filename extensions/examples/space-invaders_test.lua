local t = pi.test

it("registers /invaders", function()
  expect(t.commands()).to_contain({ name = "invaders" })
end)
