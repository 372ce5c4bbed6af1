local t = pi.test

it("needs an answer to extract questions from", function()
  t.send("/qna")
  expect(t.ui_calls("notify")[1]).to_have_shape({ message = "No assistant messages found", notifyType = "error" })
end)
