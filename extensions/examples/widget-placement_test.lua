local t = pi.test

it("puts one widget above and one below the editor", function()
  t.send("/reload")
  local widgets = t.ui_calls("setWidget")
  expect(widgets).to_contain({ widgetKey = "widget-above", widgetPlacement = "aboveEditor" })
  expect(widgets).to_contain({ widgetKey = "widget-below", widgetPlacement = "belowEditor" })
  local screen = t.screen(60, 12)
  expect(screen).to_contain("Above editor widget")
  expect(screen).to_contain("Below editor widget")
end)
