local t = pi.test

it("blocks writes to .env and lets others through", function()
  t.model.tool("write", { path = ".env", content = "SECRET=1" })
  t.model.tool("write", { path = "notes.txt", content = "hi" })
  t.model.reply("done")
  t.send("write files")
  local calls = t.tool_calls()
  expect(calls[1].is_error).to_be(true)
  expect(calls[1].result).to_contain("protected")
  expect(calls[2].is_error).to_be(false)
  expect(t.ui_calls("notify")[1].message).to_equal("Blocked a write to protected path .env")
end)
