-- Commands that send user messages on your behalf:
--   /ask <text>       ask now (only while the agent is idle)
--   /steer <text>     interrupt the running turn with new directions
--   /followup <text>  queue a message for when the agent is done
--   /askwith <text>   send a message made of several content blocks
--
--   pi -e extensions/examples/send-user-message.lua
local function trimmed(args) return args:match("^%s*(.-)%s*$") end

local function setup(pi)
  pi.registerCommand("ask", {
    description = "Send a user message to the agent",
    handler = function(args, ctx)
      if trimmed(args) == "" then return ctx.ui.notify("Usage: /ask <message>", "warning") end
      if not ctx.isIdle() then
        return ctx.ui.notify("Agent is busy. Use /steer or /followup instead.", "warning")
      end
      pi.sendUserMessage(args)
    end,
  })

  pi.registerCommand("steer", {
    description = "Send a steering message (interrupts current processing)",
    handler = function(args, ctx)
      if trimmed(args) == "" then return ctx.ui.notify("Usage: /steer <message>", "warning") end
      if ctx.isIdle() then
        pi.sendUserMessage(args)
      else
        pi.sendUserMessage(args, { deliverAs = "steer" })
      end
    end,
  })

  pi.registerCommand("followup", {
    description = "Queue a follow-up message (waits for current processing)",
    handler = function(args, ctx)
      if trimmed(args) == "" then return ctx.ui.notify("Usage: /followup <message>", "warning") end
      if ctx.isIdle() then
        pi.sendUserMessage(args)
      else
        pi.sendUserMessage(args, { deliverAs = "followUp" })
        ctx.ui.notify("Follow-up queued", "info")
      end
    end,
  })

  pi.registerCommand("askwith", {
    description = "Send a user message with structured content",
    handler = function(args, ctx)
      if trimmed(args) == "" then return ctx.ui.notify("Usage: /askwith <message>", "warning") end
      if not ctx.isIdle() then return ctx.ui.notify("Agent is busy", "warning") end
      pi.sendUserMessage({
        { type = "text", text = "User request: " .. args },
        { type = "text", text = "Please respond concisely." },
      })
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
