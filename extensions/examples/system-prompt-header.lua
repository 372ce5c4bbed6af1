-- Shows the length of the system prompt in use as a footer status.
--
--   pi -e extensions/examples/system-prompt-header.lua
return function(pi)
  pi.on("agent_start", function(_, ctx)
    local prompt = ctx.getSystemPrompt()
    ctx.ui.setStatus("system-prompt", string.format("System: %d chars", utf8.len(prompt) or #prompt))
  end)

  pi.on("session_shutdown", function(_, ctx)
    ctx.ui.setStatus("system-prompt", nil)
  end)
end
