local t = pi.test

it("runs a harmless command with pipefail and notes that it checked it", function()
  t.model.tool("bash", { command = "false | echo piped" })
  t.model.reply("ok")
  t.send("run it")
  local call = t.tool_calls()[1]
  expect(call.result).to_contain("piped")
  expect(call.result).to_contain("bash-guard: checked")
  -- pipefail makes the failing first stage fail the pipeline.
  expect(call.is_error).to_be(true)
end)

it("refuses rm -rf outside /tmp before bash runs", function()
  t.model.tool("bash", { command = "rm -rf build" })
  t.model.reply("ok")
  t.send("clean up")
  local call = t.tool_calls()[1]
  expect(call.is_error).to_be(true)
  expect(call.result).to_contain("bash-guard: rm -rf outside /tmp is refused")
  expect(call.result).never.to_contain("bash-guard: checked")
end)

it("lets rm -rf in /tmp through", function()
  t.model.tool("bash", { command = "rm -rf /tmp/pi-bash-guard-test-nothing && echo removed" })
  t.model.reply("ok")
  t.send("clean tmp")
  local call = t.tool_calls()[1]
  expect(call.is_error).to_be(false)
  expect(call.result).to_contain("removed")
end)
