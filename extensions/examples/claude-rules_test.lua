local t = pi.test

it("lists .claude/rules files in the system prompt", function()
  local dir = t.cwd()
  os.execute("mkdir -p '" .. dir .. "/.claude/rules/api'")
  io.open(dir .. "/.claude/rules/style.md", "w"):close()
  io.open(dir .. "/.claude/rules/api/errors.md", "w"):close()
  t.model.reply("ok")
  t.send("hi")
  expect(t.ui_calls("notify")[1].message).to_equal("Found 2 rule(s) in .claude/rules/")
  local prompt = t.model.requests()[1].system_prompt
  expect(prompt).to_contain("- .claude/rules/style.md")
  expect(prompt).to_contain("- .claude/rules/api/errors.md")
end)

it("leaves the prompt alone without rules", function()
  t.model.reply("ok")
  t.send("hi")
  expect(t.model.requests()[1].system_prompt).never.to_contain("Project Rules")
end)
