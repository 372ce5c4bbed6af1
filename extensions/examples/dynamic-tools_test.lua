local t = pi.test

it("registers echo_session at start and more tools on demand", function()
  expect(t.tools()).to_contain("echo_session")
  expect(t.ui_calls("notify")[1].message).to_equal("Registered dynamic tool: echo_session")
  t.send("/add-echo-tool shout")
  expect(t.tools()).to_contain("shout")
  t.send("/add-echo-tool shout")
  expect(t.ui_calls("notify")[3].message).to_equal("Tool already registered: shout")
  t.model.tool("shout", { message = "hey" })
  t.model.reply("done")
  t.send("shout hey")
  expect(t.tool_calls()[1].result).to_equal("[shout] hey")
end)
