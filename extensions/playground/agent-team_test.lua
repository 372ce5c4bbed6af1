local t = pi.test

it("offers dispatch_agent and the team commands", function()
  expect(t.tools()).to_contain("dispatch_agent")
  expect(t.commands()).to_contain({ name = "agents-team" })
  expect(t.commands()).to_contain({ name = "agents-list" })
end)
