local t = pi.test

it("sets the label at start and on /thinking-label", function()
  t.start()
  expect(t.ui_calls("setHiddenThinkingLabel")[1].label).to_equal("Pondering...")
  t.send("/thinking-label Musing")
  expect(t.ui_calls("setHiddenThinkingLabel")[2].label).to_equal("Musing")
  expect(t.ui_calls("notify")[1].message).to_equal("Hidden thinking label set to: Musing")
  t.send("/thinking-label")
  expect(t.ui_calls("notify")[2].message).to_equal("Hidden thinking label reset to: Pondering...")
end)
