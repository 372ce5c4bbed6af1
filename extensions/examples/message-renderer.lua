-- Draws custom messages of type "status-update" as a coloured box (with the time when
-- expanded). /status [warn|error] message sends one.
--
--   pi -e extensions/examples/message-renderer.lua
local function setup(pi)
  local ui = require("pi.ui")

  pi.registerMessageRenderer("status-update", function(message, options, theme)
    local details = message.details or {}
    local level = details.level or "info"
    local colour = level == "error" and "error" or level == "warn" and "warning" or "success"
    local text = theme.fg(colour, "[" .. level:upper() .. "]") .. " " .. tostring(message.content)
    if options.expanded and details.timestamp then
      text = text .. "\n" .. theme.fg("dim", "  at " .. os.date("%H:%M:%S", details.timestamp // 1000))
    end
    local box = ui.Box(1, 1, function(t) return theme.bg("customMessageBg", t) end)
    box.addChild(ui.Text(text, 0, 0))
    return box
  end)

  pi.registerCommand("status", {
    description = "Send a status message (usage: /status [warn|error] message)",
    handler = function(args)
      local trimmed = args:match("^%s*(.-)%s*$")
      local first, rest = trimmed:match("^(%S+)%s*(.*)$")
      local level, content = "info", trimmed
      if first == "warn" or first == "error" then
        level = first
        content = rest ~= "" and rest or "Status update"
      end
      pi.sendMessage({
        customType = "status-update",
        content = content,
        display = true,
        details = { level = level, timestamp = os.time() * 1000 },
      })
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
