-- Asks before actions that leave the current session: /new (clears it),
-- /resume when it holds messages, and /fork.
--
--   pi -e extensions/examples/confirm-destructive.lua
local function setup(pi)
  pi.on("session_before_switch", function(event, ctx)
    if not ctx.hasUI then return end
    if event.reason == "new" then
      if not ctx.ui.confirm("Clear session?", "This will delete all messages in the current session.") then
        ctx.ui.notify("Clear cancelled", "info")
        return { cancel = true }
      end
      return
    end

    local has_messages = false
    for _, entry in ipairs(ctx.sessionManager.getEntries()) do
      if entry.type == "message" and entry.message.role == "user" then
        has_messages = true
        break
      end
    end
    if has_messages and not ctx.ui.confirm("Switch session?", "You have messages in the current session. Switch anyway?") then
      ctx.ui.notify("Switch cancelled", "info")
      return { cancel = true }
    end
  end)

  pi.on("session_before_fork", function(event, ctx)
    if not ctx.hasUI then return end
    local choice = ctx.ui.select("Fork from entry " .. event.entryId:sub(1, 8) .. "?", {
      "Yes, create fork",
      "No, stay in current session",
    })
    if choice ~= "Yes, create fork" then
      ctx.ui.notify("Fork cancelled", "info")
      return { cancel = true }
    end
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
