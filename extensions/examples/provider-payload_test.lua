local t = pi.test

-- The scripted model sends no HTTP payload, so before_provider_request has nothing to
-- log here; the test checks that the hooks leave a run alone.
it("leaves a run with the scripted model alone", function()
  t.model.reply("ok")
  t.send("hi")
  expect(t.messages()[2].text).to_equal("ok")
  expect(t.commands()).to_equal({})
end)
