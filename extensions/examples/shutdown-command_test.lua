local t = pi.test

it("the deploy tool streams progress and returns its environment", function()
  t.model.tool("deploy_and_exit", { environment = "staging" })
  t.model.reply("bye")
  t.send("deploy")
  local call = t.tool_calls()[1]
  expect(call.result).to_equal("Done! Shutdown requested.")
  expect(call.details).to_equal({ environment = "staging" })
end)
