local t = pi.test

it("replaces the built-in tools with its own, which still work", function()
  local f = assert(io.open(t.cwd() .. "/a.txt", "w")); f:write("alpha\n"); f:close()
  t.model.tool("read", { path = "a.txt" })
  t.model.reply("done")
  t.send("read it")
  expect(t.tool_calls()[1].result).to_contain("alpha")
end)
