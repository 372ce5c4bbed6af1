local t = pi.test

it("loads and adds no tools of its own", function()
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
  expect(t.commands()).to_equal({})
end)
