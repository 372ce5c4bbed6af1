local t = pi.test

it("registers /trigger-compact", function()
  expect(t.commands()).to_contain({ name = "trigger-compact" })
end)
