local t = pi.test

it("loads and registers no commands", function()
  expect(t.commands()).to_equal({})
end)
