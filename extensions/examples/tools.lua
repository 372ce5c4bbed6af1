-- /tools opens a list of every tool to switch each on or off. The choice is
-- saved in the session, follows /tree navigation and comes back on resume.
--
--   pi -e extensions/examples/tools.lua
local function setup(pi)
  local ui = require("pi.ui")
  local enabled = {} -- name -> true

  local function names(set)
    local list = {}
    for _, tool in ipairs(pi.getAllTools()) do
      if set[tool.name] then list[#list + 1] = tool.name end
    end
    return list
  end

  local function apply() pi.setActiveTools(names(enabled)) end
  local function persist() pi.appendEntry("tools-config", { enabledTools = names(enabled) }) end

  local function restore(ctx)
    local saved
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      if entry.type == "custom" and entry.customType == "tools-config" and entry.data and entry.data.enabledTools then
        saved = entry.data.enabledTools
      end
    end
    enabled = {}
    if saved then
      for _, name in ipairs(saved) do enabled[name] = true end
      apply() -- names() drops tools that no longer exist
    else
      for _, name in ipairs(pi.getActiveTools()) do enabled[name] = true end
    end
  end

  pi.registerCommand("tools", {
    description = "Enable/disable tools",
    handler = function(_, ctx)
      ctx.ui.custom(function(tui, theme, _, done)
        local items = {}
        for _, tool in ipairs(pi.getAllTools()) do
          items[#items + 1] = {
            id = tool.name,
            label = tool.name,
            currentValue = enabled[tool.name] and "enabled" or "disabled",
            values = { "enabled", "disabled" },
          }
        end
        local list = ui.SettingsList(items, math.min(#items + 2, 15), theme, function(id, value)
          enabled[id] = value == "enabled" or nil
          apply()
          persist()
        end, function() done(nil) end)
        local box = ui.Container()
        box.addChild(ui.Text(theme.fg("accent", theme.bold("Tool Configuration")), 0, 0))
        box.addChild(ui.Spacer(1))
        box.addChild(list)
        return {
          render = function(width) return box.render(width) end,
          handleInput = function(key)
            list.handleInput(key)
            tui.requestRender()
          end,
        }
      end)
    end,
  })

  pi.on("session_start", function(_, ctx) restore(ctx) end)
  pi.on("session_tree", function(_, ctx) restore(ctx) end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
