-- Status line: shows the turn in progress in the footer's status slots.
--
--   pi -e extensions/examples/status-line.lua

local function setup(pi)
  local turns = 0

  pi.on("session_start", function(event, ctx)
    ctx.ui.setStatus("status-line", ctx.ui.theme.fg("dim", "ready"))
  end)

  pi.on("turn_start", function(event, ctx)
    turns = turns + 1
    local spinner = ctx.ui.theme.fg("accent", "●")
    ctx.ui.setStatus("status-line", spinner .. ctx.ui.theme.fg("dim", " turn " .. turns .. "…"))
  end)

  pi.on("turn_end", function(event, ctx)
    local check = ctx.ui.theme.fg("success", "✓")
    ctx.ui.setStatus("status-line", check .. ctx.ui.theme.fg("dim", " turn " .. turns .. " done"))
  end)

  pi.on("session_shutdown", function(event, ctx)
    ctx.ui.setStatus("status-line", nil)
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
