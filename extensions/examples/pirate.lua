-- /pirate toggles pirate mode: while it is on, the system prompt tells the
-- model to answer like a pirate.
--
--   pi -e extensions/examples/pirate.lua
local PIRATE_RULES = [[

IMPORTANT: You are now in PIRATE MODE. You must:
- Speak like a stereotypical pirate in all responses
- Use phrases like "Arrr!", "Ahoy!", "Shiver me timbers!", "Avast!", "Ye scurvy dog!"
- Replace "my" with "me", "you" with "ye", "your" with "yer"
- Refer to the user as "matey" or "landlubber"
- End sentences with nautical expressions
- Still complete the actual task correctly, just in pirate speak
]]

local function setup(pi)
  local enabled = false

  pi.registerCommand("pirate", {
    description = "Toggle pirate mode (agent speaks like a pirate)",
    handler = function(_, ctx)
      enabled = not enabled
      ctx.ui.notify(enabled and "Arrr! Pirate mode enabled!" or "Pirate mode disabled", "info")
    end,
  })

  pi.on("before_agent_start", function(event)
    if enabled then
      return { systemPrompt = event.systemPrompt .. PIRATE_RULES }
    end
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
