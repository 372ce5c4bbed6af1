-- Minimal: a one-line footer with the model and a ten-cell context meter.
--   nightshade-model                                   [###-------] 30%
-- Run: pi -e extensions/playground/minimal.lua
local function setup(pi)
  local i18n = require("lib.i18n")
  local T = i18n.texts(pi, i18n.load(pi), { no_model = "counter.no-model" })
  local ui = require("pi.ui")
  local fmt = require("lib.fmt")
  require("lib.defaults").apply(pi, "minimal")
  local tui_ref

  pi.on("session_start", function(_, ctx)
    ctx.ui.setFooter(function(tui, theme)
      tui_ref = tui
      return {
        render = function(width)
          local model = ctx.model and ctx.model.id or T.no_model
          local usage = ctx.getContextUsage()
          local percent = usage and usage.percent or 0
          local left = " " .. model
          local right = string.format("[%s] %d%% ", fmt.bar(percent, 10), math.floor(percent + 0.5))
          return { theme.fg("dim", ui.truncateToWidth(fmt.spread(left, right, width), width)) }
        end,
      }
    end)
  end)

  local function refresh() if tui_ref then tui_ref.requestRender() end end
  pi.on("turn_end", refresh)
  pi.on("model_select", refresh)
  pi.on("session_compact", refresh)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "$extension" } } },
  setup = setup,
}
