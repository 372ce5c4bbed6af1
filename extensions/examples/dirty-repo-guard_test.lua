local t = pi.test

it("asks before /new with uncommitted files and stays when told to", function()
  local dir = t.cwd()
  os.execute("cd '" .. dir .. "' && git init -q && touch a.txt b.txt")
  t.model.reply("ok")
  t.send("hello")
  t.answer.select("No, let me commit first")
  t.send("/new")
  expect(t.ui_calls("select")[1].title).to_equal("You have 2 uncommitted file(s). new session anyway?")
  expect(t.ui_calls("notify")[1].message).to_equal("Commit your changes first")
  expect(#t.messages()).to_equal(2)
end)

it("does not ask outside a repository", function()
  t.send("/new")
  expect(t.ui_calls("select")).to_equal({})
end)
