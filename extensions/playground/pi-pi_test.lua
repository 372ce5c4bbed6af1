local t = pi.test

it("names the experts there are when asked for an unknown one", function()
  expect(t.tools()).to_contain("query_experts")
  t.model.tool("query_experts", { question = "How?", experts = { "nobody" } })
  t.model.reply("ok")
  t.send("ask the experts")
  local call = t.tool_calls()[1]
  expect(call.is_error).to_be(true)
  expect(call.result).to_contain('no expert "nobody"; experts: ')
  expect(call.result).to_contain("tui-expert")
end)
