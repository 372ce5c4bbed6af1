-- Puts the current model in the footer and announces model switches.
--
--   pi -e extensions/examples/model-status.lua
local function setup(pi)
  local function label(model)
    return model and (model.provider .. "/" .. model.id) or "none"
  end

  pi.on("model_select", function(event, ctx)
    local next_model = label(event.model)
    if event.source ~= "restore" then
      ctx.ui.notify("Model: " .. next_model, "info")
    end
    ctx.ui.setStatus("model", "🤖 " .. event.model.id)
    pi.log.debug(string.format("[model_select] %s → %s (%s)", label(event.previousModel), next_model, event.source))
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
