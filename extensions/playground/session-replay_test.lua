local t = pi.test

it("registers /replay", function()
  expect(t.commands()).to_contain({ name = "replay" })
end)
