local t = pi.test

it("has nothing to replay in a new session", function()
  t.send("/replay")
  expect(t.ui_calls("notify")[1].message).to_equal("Nothing to replay yet: the session has no messages.")
  expect(t.commands()).to_contain({ name = "replay" })
end)
