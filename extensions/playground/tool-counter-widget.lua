-- Tool counter widget: calls per tool, each tool in its own colour, above the editor.
--   Tools (12):  [read 7]  [bash 3]  [write 2]
-- Run: pi -e extensions/playground/tool-counter-widget.lua
local function setup(pi)
  local i18n = require("lib.i18n")
  local T = i18n.texts(pi, i18n.load(pi), { tools = "counter.widget-title", none = "counter.none-yet" })
  local ui = require("pi.ui")
  local tally = require("lib.tally").new()
  require("lib.defaults").apply(pi, "tool-counter-widget")
  local tui_ref

  -- Colours handed out to tools in the order they are first seen.
  local PALETTE = { "accent", "success", "warning", "mdLink", "syntaxString", "syntaxType", "syntaxNumber", "error" }
  local colours, next_colour = {}, 1
  local function colour_of(name)
    if not colours[name] then
      colours[name] = PALETTE[(next_colour - 1) % #PALETTE + 1]
      next_colour = next_colour + 1
    end
    return colours[name]
  end

  local function show(ctx)
    ctx.ui.setWidget("tool-counter", function(tui, theme)
      tui_ref = tui
      return {
        render = function(width)
          local parts = { theme.fg("dim", (T.tools:gsub("{count}", tostring(tally.total)))) }
          local sorted = tally:sorted()
          if #sorted == 0 then parts[#parts + 1] = theme.fg("dim", T.none) end
          for _, t in ipairs(sorted) do
            parts[#parts + 1] = theme.fg(colour_of(t.name), "[" .. t.name .. " " .. t.count .. "]")
          end
          return { ui.truncateToWidth(table.concat(parts, "  "), width) }
        end,
      }
    end, { placement = "aboveEditor" })
  end

  local function refresh() if tui_ref then tui_ref.requestRender() end end
  pi.on("session_start", function(_, ctx) tally:rebuild(ctx); show(ctx) end)
  pi.on("session_tree", function(_, ctx) tally:rebuild(ctx); refresh() end)
  pi.on("tool_execution_end", function(event)
    tally:add(event.toolName or "?")
    refresh()
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "$extension" } } },
  setup = setup,
}
