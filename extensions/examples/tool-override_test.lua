local t = pi.test

it("refuses to read .env files and reads others", function()
  local f = assert(io.open(t.cwd() .. "/notes.txt", "w")); f:write("one\ntwo\n"); f:close()
  t.model.tool("read", { path = ".env" })
  t.model.tool("read", { path = "notes.txt" })
  t.model.reply("done")
  t.send("read them")
  local calls = t.tool_calls()
  expect(calls[1].result).to_match("^Access denied")
  expect(calls[2].result).to_contain("one\ntwo")
end)
