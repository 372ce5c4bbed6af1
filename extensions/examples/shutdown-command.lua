-- /quit exits pi cleanly through ctx.shutdown(); the finish_and_exit and
-- deploy_and_exit tools let the model end the session once its work is done.
-- (In the terminal UI pi's own /quit runs; in RPC and print mode this one does.)
--
--   pi -e extensions/examples/shutdown-command.lua
local function text(s) return { { type = "text", text = s } } end

local function setup(pi)
  pi.registerCommand("quit", {
    description = "Exit pi cleanly",
    handler = function(_, ctx) ctx.shutdown() end,
  })

  pi.registerTool({
    name = "finish_and_exit",
    label = "Finish and Exit",
    description = "Complete a task and exit pi",
    parameters = { type = "object", properties = {} },
    execute = function(_, _, _, _, ctx)
      -- pi quits once the agent is idle, so the model still sees this result.
      ctx.shutdown()
      return { content = text("Shutdown requested. Exiting after this response."), details = {} }
    end,
  })

  pi.registerTool({
    name = "deploy_and_exit",
    label = "Deploy and Exit",
    description = "Deploy the application and exit pi",
    parameters = {
      type = "object",
      properties = {
        environment = { type = "string", description = "Target environment (e.g., production, staging)" },
      },
      required = { "environment" },
    },
    execute = function(_, params, _, onUpdate, ctx)
      onUpdate({ content = text("Deploying to " .. params.environment .. "..."), details = {} })
      -- A real deployment would run here, e.g. pi.exec("npm", {"run", "deploy", params.environment}).
      onUpdate({ content = text("Deployment complete, exiting..."), details = {} })
      ctx.shutdown()
      return { content = text("Done! Shutdown requested."), details = { environment = params.environment } }
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
