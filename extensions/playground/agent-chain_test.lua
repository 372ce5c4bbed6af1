local t = pi.test

it("offers run_chain and lists the shipped chains with their steps", function()
  expect(t.tools()).to_contain("run_chain")
  t.send("/chain-list")
  local notes = t.ui_calls("notify")
  expect(notes[#notes].message).to_match("\n  1%. ")
  expect(t.commands()).to_contain({ name = "chain" })
end)
