-- Sets a brown "Working... (custom)" message and a single-dot indicator when the
-- session starts, so you can check they stay in place turn after turn.
--
--   pi -e extensions/examples/working-message-test.lua
local BROWN = "\27[38;2;155;86;63m"
local RESET = "\27[39m"

local function setup(pi)
  pi.on("session_start", function(_, ctx)
    ctx.ui.setWorkingMessage(BROWN .. "Working... (custom)" .. RESET)
    ctx.ui.setWorkingIndicator({ frames = { BROWN .. "●" .. RESET } })
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
