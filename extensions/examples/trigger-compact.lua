-- Compacts the conversation once the context grows past 100k tokens, and adds
-- /trigger-compact [instructions] to compact right away.
--
--   pi -e extensions/examples/trigger-compact.lua
local THRESHOLD = 100000

local function setup(pi)
  local previous -- tokens after the previous turn

  local function compact(ctx, instructions)
    if ctx.hasUI then ctx.ui.notify("Compaction started", "info") end
    ctx.compact({
      customInstructions = instructions,
      onComplete = function()
        if ctx.hasUI then ctx.ui.notify("Compaction completed", "info") end
      end,
      onError = function(err)
        if ctx.hasUI then ctx.ui.notify("Compaction failed: " .. err.message, "error") end
      end,
    })
  end

  pi.on("turn_end", function(_, ctx)
    local usage = ctx.getContextUsage()
    if not usage or not usage.tokens then return end
    local crossed = previous ~= nil and previous <= THRESHOLD and usage.tokens > THRESHOLD
    previous = usage.tokens
    if crossed then compact(ctx) end
  end)

  pi.registerCommand("trigger-compact", {
    description = "Trigger compaction immediately",
    handler = function(args, ctx)
      local instructions = args:match("^%s*(.-)%s*$")
      compact(ctx, instructions ~= "" and instructions or nil)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
