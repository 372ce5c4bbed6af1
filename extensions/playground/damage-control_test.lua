local t = pi.test

it("summarises its rules", function()
  t.send("/damage-control")
  local notes = t.ui_calls("notify")
  expect(notes[1].message).to_match("^🛡 damage%-control: %d+ rules loaded")
  expect(notes[#notes].message).to_match("^damage%-control: %d+ command rules %(%d+ ask first%)")
end)

-- A command that would do no harm here (no repository) if the rule failed to block it.
it("blocks a destructive git command through the permission hook", function()
  t.model.tool("bash", { command = "git stash clear" })
  t.model.reply("ok")
  t.send("clean everything")
  local call = t.tool_calls()[1]
  expect(call.is_error).to_be(true)
  expect(call.result).to_contain("BLOCKED by damage-control")
  expect(call.result).never.to_contain("not a git repository")
end)

it("lets a harmless command run", function()
  t.model.tool("bash", { command = "echo fine" })
  t.model.reply("ok")
  t.send("say fine")
  expect(t.tool_calls()[1].result).to_contain("fine")
end)
