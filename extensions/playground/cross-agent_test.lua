local t = pi.test

it("turns a .claude/commands file into a slash command", function()
  local dir = t.cwd() .. "/.claude/commands"
  os.execute("mkdir -p '" .. dir .. "'")
  local f = assert(io.open(dir .. "/review.md", "w"))
  f:write("---\ndescription: Review a file\n---\nReview $1 carefully.\n")
  f:close()
  expect(t.commands()).to_contain({ name = "review", description = "[.claude] Review a file" })
  expect(t.commands()).to_contain({ name = "claude:review" })
  t.model.reply("Looks fine.")
  t.send("/review src/main.rs")
  local sent = t.model.requests()[1].messages
  expect(sent[#sent].text).to_equal("Review src/main.rs carefully.")
end)
