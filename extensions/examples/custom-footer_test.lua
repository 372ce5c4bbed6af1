local t = pi.test

it("loads and leaves the built-in tools as they are", function()
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
  t.model.reply("ok")
  t.send("hi")
  expect(t.messages()[2].text).to_equal("ok")
end)
