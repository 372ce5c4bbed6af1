local t = pi.test

it("offers dispatch_agent and lists the active team's members as idle", function()
  expect(t.tools()).to_contain("dispatch_agent")
  t.send("/agents-list")
  local notes = t.ui_calls("notify")
  local listing = notes[#notes].message
  expect(listing).to_match("%(idle%): ")
  expect(t.commands()).to_contain({ name = "agents-team" })
end)

it("refuses an agent outside the team", function()
  t.model.tool("dispatch_agent", { agent = "nobody-here", task = "x" })
  t.model.reply("ok")
  t.send("delegate")
  local call = t.tool_calls()[1]
  expect(call.is_error).to_be(true)
  expect(call.result).to_contain("nobody-here")
end)
