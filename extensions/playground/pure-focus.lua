-- Pure focus: no footer and no status line, just the conversation and the editor.
-- Run: pi -e extensions/playground/pure-focus.lua
local function setup(pi)
  require("lib.defaults").apply(pi, "pure-focus")

  pi.on("session_start", function(_, ctx)
    -- A footer that draws nothing replaces pi's footer and status slots.
    ctx.ui.setFooter(function()
      return { render = function() return {} end }
    end)
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
