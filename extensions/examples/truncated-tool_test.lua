local t = pi.test

it("searches with rg and reports matches", function()
  local f = assert(io.open(t.cwd() .. "/a.txt", "w")); f:write("needle here\n"); f:close()
  t.model.tool("rg", { pattern = "needle" })
  t.model.reply("done")
  t.send("find")
  expect(t.tool_calls()[1].result).to_contain("needle here")
end)
