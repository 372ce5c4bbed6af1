local t = pi.test

it("registers a model_select handler and nothing else", function()
  expect(t.commands()).to_equal({})
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
  expect(t.ui_calls()).to_equal({})
end)
