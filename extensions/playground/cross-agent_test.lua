local t = pi.test

it("loads in a folder without other agents' commands", function()
  t.start()
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
end)
