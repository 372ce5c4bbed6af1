local t = pi.test

it("reports the answers of the two timed dialogs", function()
  t.answer.confirm(true)
  t.answer.select("green")
  t.send("/timed-confirm 1000")
  local notes = t.ui_calls("notify")
  expect(notes[1]).to_have_shape({ message = "Confirmed", notifyType = "success" })
  expect(notes[2].message).to_equal("Picked: green")
  expect(t.ui_calls("confirm")[1].timeout).to_equal(1000)
end)

it("treats a dismissed dialog as declined", function()
  t.send("/timed-confirm")
  expect(t.ui_calls("notify")[1].message).to_equal("Not confirmed (declined or timed out)")
  expect(t.ui_calls("notify")[2].message).to_equal("Picked: nothing")
end)
