-- /footer switches between pi's footer and one with token counts, cost and a context
-- bar, updated while answers stream.
-- Run: pi -e extensions/examples/custom-footer.lua
local function setup(pi)
  local ui = require("pi.ui")
  local tui_ref
  local live -- usage of the answer streaming now
  local enabled = false

  local function totals(ctx)
    local input, output, cost = 0, 0, 0
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      local m = entry.type == "message" and entry.message
      if m and m.role == "assistant" and m.usage then
        input = input + (m.usage.input or 0)
        output = output + (m.usage.output or 0)
        cost = cost + ((m.usage.cost or {}).total or 0)
      end
    end
    if live then
      input = input + (live.input or 0)
      output = output + (live.output or 0)
    end
    return input, output, cost
  end

  local function bar(percent, cells)
    local filled = math.floor(percent / 100 * cells + 0.5)
    return string.rep("█", filled) .. string.rep("░", cells - filled)
  end

  local function install(ctx)
    ctx.ui.setFooter(function(tui, theme)
      tui_ref = tui
      return {
        render = function(width)
          local input, output, cost = totals(ctx)
          local usage = ctx.getContextUsage()
          local percent = usage and usage.percent or 0
          local model = ctx.model and ctx.model.id or "no model"
          local left = string.format("↑%d ↓%d $%.3f", input, output, cost)
          local right = string.format("%s %s %d%%", model, bar(percent, 10), math.floor(percent))
          local gap = width - ui.visibleWidth(left) - ui.visibleWidth(right)
          if gap < 1 then
            return { ui.truncateToWidth(left .. " " .. right, width) }
          end
          return { theme.fg("dim", left .. string.rep(" ", gap) .. right) }
        end,
      }
    end)
  end

  pi.registerCommand("footer", {
    description = "Toggle custom footer",
    handler = function(_, ctx)
      enabled = not enabled
      if enabled then
        install(ctx)
        ctx.ui.notify("Custom footer enabled", "info")
      else
        tui_ref = nil
        ctx.ui.setFooter(nil)
        ctx.ui.notify("Default footer restored", "info")
      end
    end,
  })
  local function refresh() if tui_ref then tui_ref.requestRender() end end
  pi.on("message_update", function(event)
    if event.message and event.message.role == "assistant" then
      live = event.message.usage
      refresh()
    end
  end)
  pi.on("message_end", function() live = nil; refresh() end)
  pi.on("turn_end", refresh)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
