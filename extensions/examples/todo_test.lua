local t = pi.test

it("adds, toggles and lists todos", function()
  t.model.reply({ tools = { { name = "todo", args = { action = "add", text = "write tests" } } } })
  t.model.tool("todo", { action = "toggle", id = 1 })
  t.model.tool("todo", { action = "list" })
  t.model.reply("done")
  t.send("plan")
  local calls = t.tool_calls()
  expect(calls[1].result).to_equal("Added #1")
  expect(calls[2].result).to_equal("Toggled #1")
  expect(calls[3].result).to_equal("[x] #1 write tests")
  expect(calls[3].details).to_have_shape({ nextId = 2, todos = { { text = "write tests", done = true } } })
end)
