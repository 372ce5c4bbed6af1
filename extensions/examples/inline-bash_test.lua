local t = pi.test

it("replaces !{command} with its output before the model sees it", function()
  t.model.reply("ok")
  t.send("the answer is !{echo 42}")
  local sent = t.model.requests()[1].messages
  expect(sent[#sent].text).to_equal("the answer is 42")
  expect(t.ui_calls("notify")[1].message).to_contain('!{echo 42} -> "42"')
end)

it("leaves a plain ! command alone", function()
  t.model.reply("ok")
  t.send("no commands here")
  local sent = t.model.requests()[1].messages
  expect(sent[#sent].text).to_equal("no commands here")
end)
