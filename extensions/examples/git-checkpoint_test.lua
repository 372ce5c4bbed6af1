local t = pi.test

it("registers its hooks without commands or tools of its own", function()
  expect(t.commands()).to_equal({})
  expect(t.tools()).to_equal({ "read", "bash", "edit", "write" })
  t.model.reply("ok")
  t.send("hi")
  expect(t.ui_calls("select")).to_equal({})
end)
