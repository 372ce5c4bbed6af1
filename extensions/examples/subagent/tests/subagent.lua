local t = pi.test

it("offers the subagent tool", function()
  expect(t.tools()).to_contain("subagent")
end)
