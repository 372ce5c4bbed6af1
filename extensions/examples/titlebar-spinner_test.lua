local t = pi.test

it("restores the plain title when the run ends", function()
  t.model.reply("ok")
  t.send("hi")
  local titles = t.ui_calls("setTitle")
  expect(titles[#titles].title).to_match("^π %- ")
end)
