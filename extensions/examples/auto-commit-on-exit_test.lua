local t = pi.test

it("commits the changes with the last answer's first line on quit", function()
  local dir = t.cwd()
  os.execute("cd '" .. dir .. "' && git init -q && git config user.email t@e.st && git config user.name T")
  local f = assert(io.open(dir .. "/notes.txt", "w")); f:write("x\n"); f:close()
  t.model.reply("Added the notes file\nMore detail.")
  t.send("add notes")
  t.send("/quit")
  expect(t.ui_calls("notify")[1].message).to_equal("Auto-committed: [pi] Added the notes file")
  local log = io.popen("cd '" .. dir .. "' && git log --format=%s"):read("a")
  expect(log).to_equal("[pi] Added the notes file\n")
end)

it("does nothing outside a repository", function()
  t.send("/quit")
  expect(t.ui_calls("notify")).to_equal({})
end)
