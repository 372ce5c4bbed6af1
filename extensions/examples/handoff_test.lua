local t = pi.test

it("needs a goal and a conversation", function()
  t.send("/handoff")
  expect(t.ui_calls("notify")[1].message).to_equal("Usage: /handoff <goal for new thread>")
  t.send("/handoff write the tests")
  expect(t.ui_calls("notify")[2].message).to_equal("No conversation to hand off")
end)
