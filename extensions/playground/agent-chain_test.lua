local t = pi.test

it("offers run_chain and the chain commands", function()
  expect(t.tools()).to_contain("run_chain")
  expect(t.commands()).to_contain({ name = "chain" })
  expect(t.commands()).to_contain({ name = "chain-list" })
end)
