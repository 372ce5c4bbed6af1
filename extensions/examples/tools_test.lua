local t = pi.test

it("registers /tools", function()
  expect(t.commands()).to_contain({ name = "tools", description = "Enable/disable tools" })
end)
