local t = pi.test

it("ends the run with the structured answer", function()
  t.model.tool("structured_output", { headline = "Plan", summary = "Two steps.", actionItems = { "a", "b" } })
  t.send("summarise")
  local call = t.tool_calls()[1]
  expect(call.result).to_equal("Saved structured output: Plan")
  expect(call.details.actionItems).to_equal({ "a", "b" })
  expect(#t.model.requests()).to_equal(1)
end)
