-- Changes the label shown for a collapsed thinking block (hide thinking with
-- Ctrl+T, then ask for something that makes the model reason).
--
--   pi -e extensions/examples/hidden-thinking-label.lua
--
--   /thinking-label <text>   use this label
--   /thinking-label          back to the default
local DEFAULT_LABEL = "Pondering..."

---@param pi pi.API
local function setup(pi)
  local label = DEFAULT_LABEL

  pi.on("session_start", function(_, ctx)
    ctx.ui.setHiddenThinkingLabel(label)
  end)

  pi.registerCommand("thinking-label", {
    description = "Set the hidden thinking label. Use without args to reset.",
    handler = function(args, ctx)
      local next_label = args:match("^%s*(.-)%s*$")
      if next_label == "" then
        label = DEFAULT_LABEL
        ctx.ui.setHiddenThinkingLabel()
        ctx.ui.notify("Hidden thinking label reset to: " .. DEFAULT_LABEL)
        return
      end
      label = next_label
      ctx.ui.setHiddenThinkingLabel(label)
      ctx.ui.notify("Hidden thinking label set to: " .. label)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
