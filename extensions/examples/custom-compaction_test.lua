local t = pi.test

it("loads without commands or tools of its own", function()
  expect(t.commands()).to_equal({})
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
end)
