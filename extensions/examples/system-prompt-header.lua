-- Shows the length of the system prompt in use as a footer status.
--
--   pi -e extensions/examples/system-prompt-header.lua
local function setup(pi)
  pi.on("agent_start", function(_, ctx)
    local prompt = ctx.getSystemPrompt()
    ctx.ui.setStatus("system-prompt", string.format("System: %d chars", utf8.len(prompt) or #prompt))
  end)

  pi.on("session_shutdown", function(_, ctx)
    ctx.ui.setStatus("system-prompt", nil)
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
