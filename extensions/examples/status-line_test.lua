local t = pi.test

it("counts turns in the footer status", function()
  t.model.reply("ok")
  t.send("hi")
  local texts = {}
  for _, call in ipairs(t.ui_calls("setStatus")) do texts[#texts + 1] = call.statusText end
  expect(texts[1]).to_contain("ready")
  expect(texts[2]).to_contain("turn 1…")
  expect(texts[3]).to_contain("turn 1 done")
end)
