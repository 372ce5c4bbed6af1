local t = pi.test

it("registers its provider without tools or commands", function()
  expect(t.commands()).to_equal({})
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
  expect(t.ui_calls()).to_equal({})
end)
