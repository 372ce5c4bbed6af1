local t = pi.test

it("offers query_experts", function()
  expect(t.tools()).to_contain("query_experts")
end)
