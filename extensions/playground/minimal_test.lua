local t = pi.test

it("loads and keeps prompts working", function()
  t.model.reply("ok")
  t.send("hi")
  expect(t.messages()[2].text).to_equal("ok")
end)
