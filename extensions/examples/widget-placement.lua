-- Two widgets: one above the editor, one below it.
--
--   pi -e extensions/examples/widget-placement.lua
local function setup(pi)
  pi.on("session_start", function(_, ctx)
    if not ctx.hasUI then return end
    ctx.ui.setWidget("widget-above", { "Above editor widget" })
    ctx.ui.setWidget("widget-below", { "Below editor widget" }, { placement = "belowEditor" })
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
