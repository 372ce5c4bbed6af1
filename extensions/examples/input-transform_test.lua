local t = pi.test

it("answers ping itself and rewrites ?quick for the model", function()
  t.send("ping")
  expect(t.ui_calls("notify")[1].message).to_equal("pong")
  expect(t.model.requests()).to_equal({})
  t.model.reply("Short.")
  t.send("?quick what is Lua")
  local sent = t.model.requests()[1].messages
  expect(sent[#sent].text).to_equal("Respond briefly in 1-2 sentences: what is Lua")
end)
