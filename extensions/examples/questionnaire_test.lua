local t = pi.test

it("registers the questionnaire tool", function()
  expect(t.tools()).to_contain("questionnaire")
end)
