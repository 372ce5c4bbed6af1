local t = pi.test

it("labels the last answer, then removes the label", function()
  t.model.reply("An answer.")
  t.send("question")
  t.send("/bookmark  first  ")
  expect(t.ui_calls("notify")[1].message).to_equal("Bookmarked as: first")
  expect(t.entries("label")).to_contain({ label = "first" })
  t.send("/unbookmark")
  expect(t.ui_calls("notify")[2].message).to_equal("Removed bookmark: first")
end)

it("warns when there is no answer yet", function()
  t.send("/bookmark x")
  expect(t.ui_calls("notify")[1]).to_have_shape({ message = "No assistant message to bookmark", notifyType = "warning" })
end)
