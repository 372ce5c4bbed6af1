local t = pi.test

it("greets the name the model passes", function()
  t.model.tool("hello", { name = "Ann" })
  t.model.reply("Done.")
  t.send("greet Ann")
  local call = t.tool_calls()[1]
  expect(call.result).to_equal("Hello, Ann!")
  expect(call.details).to_equal({ greeted = "Ann" })
  expect(t.screen(80, 24)).to_contain('hello {"name":"Ann"}')
end)
