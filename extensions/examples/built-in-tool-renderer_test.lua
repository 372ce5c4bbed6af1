local t = pi.test

it("keeps read, bash, edit and write working with its renderers", function()
  local f = assert(io.open(t.cwd() .. "/a.txt", "w")); f:write("alpha\n"); f:close()
  t.model.tool("read", { path = "a.txt" })
  t.model.reply("done")
  t.send("read a.txt")
  expect(t.tool_calls()[1].result).to_contain("alpha")
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
end)
