-- Draws custom messages of type "status-report" as a coloured box.
-- /report <text> sends one. Run: pi -e extensions/examples/message-renderer.lua
return function(pi)
  local ui = require("pi.ui")

  pi.registerMessageRenderer("status-report", function(message, options, theme)
    local level = (message.details or {}).level or "info"
    local colour = level == "error" and "error" or level == "warning" and "warning" or "success"
    local box = ui.Box(1, 0)
    box.addChild(ui.Text(theme.fg(colour, "● " .. level:upper()) .. "  " .. tostring(message.content), 0, 0))
    if options.expanded and message.details and message.details.hint then
      box.addChild(ui.Text(theme.fg("muted", message.details.hint), 0, 0))
    end
    return box
  end)

  pi.registerCommand("report", {
    description = "Post a status report into the conversation",
    handler = function(args)
      local level = args:match("^(%a+):") or "info"
      local text = args:gsub("^%a+:%s*", "")
      pi.sendMessage({ customType = "status-report", content = text, display = true, details = { level = level } })
    end,
  })
end
