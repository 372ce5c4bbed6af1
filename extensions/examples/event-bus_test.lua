local t = pi.test

it("turns bus events into notifications", function()
  t.start()
  expect(t.ui_calls("notify")[1].message).to_equal("Event from event-bus-example: Session started")
  t.send("/emit  ping ")
  expect(t.ui_calls("notify")[2].message).to_equal("Event from /emit command: ping")
end)
