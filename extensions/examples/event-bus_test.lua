local t = pi.test

it("turns bus events into notifications", function()
  t.start()
  t.send("/emit  deploy done ")
  t.send("/emit")
  local messages = {}
  for i, call in ipairs(t.ui_calls("notify")) do messages[i] = call.message end
  expect(messages).to_equal({
    "Event from event-bus-example: Session started",
    "Event from /emit command: deploy done",
    "Event from /emit command: hello",
  })
end)
