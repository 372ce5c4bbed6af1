local t = pi.test

it("asks for exactly one mode", function()
  t.model.tool("subagent", { agent = "scout" , task = "look", tasks = { { agent = "scout", task = "x" } } })
  t.model.reply("ok")
  t.send("delegate")
  local call = t.tool_calls()[1]
  expect(call.result).to_match("^Invalid parameters%. Provide exactly one mode%.")
  expect(call.details.mode).to_equal("parallel")
end)
