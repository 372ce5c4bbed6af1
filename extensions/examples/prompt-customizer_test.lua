local t = pi.test

it("adds guidance for the active tools to the system prompt", function()
  t.model.reply("ok")
  t.send("hi")
  local prompt = t.model.requests()[1].system_prompt
  expect(prompt).to_contain("## Tool Guidance")
  expect(prompt).to_contain("Use the `read` tool for file contents")
  expect(prompt).to_contain("## Extension-Added Context")
end)
