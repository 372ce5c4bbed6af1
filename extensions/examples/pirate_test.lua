local t = pi.test

it("adds the pirate rules to the system prompt only while enabled", function()
  t.model.reply("Hello.")
  t.model.reply("Arrr!")
  t.send("hi")
  expect(t.model.requests()[1].system_prompt).never.to_match("PIRATE MODE")
  t.send("/pirate")
  expect(t.ui_calls("notify")[1].message).to_equal("Arrr! Pirate mode enabled!")
  t.send("hi again")
  expect(t.model.requests()[2].system_prompt).to_match("PIRATE MODE")
end)
