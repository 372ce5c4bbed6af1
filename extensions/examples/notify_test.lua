local t = pi.test

it("lets a run finish normally", function()
  t.model.reply("ok")
  t.send("hi")
  expect(t.messages()[2].text).to_equal("ok")
  expect(t.commands()).to_equal({})
end)
