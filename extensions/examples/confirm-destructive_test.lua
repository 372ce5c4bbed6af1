local t = pi.test

it("asks before /new and keeps the session when declined", function()
  t.model.reply("ok")
  t.send("hello")
  t.answer.confirm(false)
  t.send("/new")
  expect(t.ui_calls("confirm")[1].title).to_equal("Clear session?")
  expect(t.ui_calls("notify")[1].message).to_equal("Clear cancelled")
  expect(#t.messages()).to_equal(2)
end)

it("lets /new through when confirmed", function()
  t.model.reply("ok")
  t.send("hello")
  t.answer.confirm(true)
  t.send("/new")
  expect(t.messages()).to_equal({})
end)
