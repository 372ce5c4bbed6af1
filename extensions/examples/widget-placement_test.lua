local t = pi.test

it("puts one widget above and one below the editor", function()
  t.start()
  local widgets = t.ui_calls("setWidget")
  expect(#widgets).to_equal(2)
  expect(widgets[1]).to_have_shape({
    widgetKey = "widget-above", widgetLines = { "Above editor widget" }, widgetPlacement = "aboveEditor",
  })
  expect(widgets[2]).to_have_shape({
    widgetKey = "widget-below", widgetLines = { "Below editor widget" }, widgetPlacement = "belowEditor",
  })
  local screen = t.screen(60, 12)
  expect(screen).to_contain("Above editor widget")
  expect(screen).to_contain("Below editor widget")
end)
