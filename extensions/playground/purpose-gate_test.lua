local t = pi.test

it("asks for the purpose first and adds it to the system prompt", function()
  t.answer.input("fix the login test")
  t.model.reply("ok")
  t.send("look at login")
  expect(t.ui_calls("input")[1].title).to_equal("What is this session for?")
  expect(t.ui_calls("notify")[1].message).to_equal("Purpose set: fix the login test")
  expect(t.model.requests()[1].system_prompt).to_contain("## Session purpose\nfix the login test")
end)

it("keeps the message back when no purpose is given", function()
  t.send("look at login")
  expect(t.model.requests()).to_equal({})
  expect(t.ui_calls("set_editor_text")[1].text).to_equal("look at login")
end)
