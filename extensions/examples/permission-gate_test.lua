local t = pi.test

it("asks before rm -rf and blocks it when the user declines", function()
  t.model.tool("bash", { command = "rm -rf build" })
  t.model.tool("bash", { command = "echo safe" })
  t.model.reply("done")
  t.answer.confirm(false)
  t.send("clean up")
  local calls = t.tool_calls()
  expect(t.ui_calls("confirm")[1].title).to_equal("Dangerous command: rm -rf")
  expect(calls[1].is_error).to_be(true)
  expect(calls[1].result).to_contain("Blocked by user")
  expect(calls[2].result).to_contain("safe")
end)
