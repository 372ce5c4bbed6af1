local t = pi.test

it("loads without commands and keeps prompts working", function()
  expect(t.commands()).to_equal({})
  t.model.reply("ok")
  t.send("hi")
  expect(#t.model.requests()).to_equal(1)
end)
