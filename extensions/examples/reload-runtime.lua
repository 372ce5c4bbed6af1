-- /reload-runtime reloads extensions, skills, prompts and themes; the
-- reload_runtime tool lets the model ask for the same by queueing that command.
--
--   pi -e extensions/examples/reload-runtime.lua
local function setup(pi)
  pi.registerCommand("reload-runtime", {
    description = "Reload extensions, skills, prompts, and themes",
    handler = function(_, ctx)
      ctx.reload()
    end,
  })

  -- Tools cannot reload directly (their ctx has no reload), so the tool queues
  -- the command as a follow-up message, which runs once the turn is over.
  pi.registerTool({
    name = "reload_runtime",
    label = "Reload Runtime",
    description = "Reload extensions, skills, prompts, and themes",
    parameters = { type = "object", properties = {} },
    execute = function()
      pi.sendUserMessage("/reload-runtime", { deliverAs = "followUp" })
      return {
        content = { { type = "text", text = "Queued /reload-runtime as a follow-up command." } },
        details = {},
      }
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
