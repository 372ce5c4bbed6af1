-- Spins a braille spinner in the terminal title while the agent works.
--
--   pi -e extensions/examples/titlebar-spinner.lua
local FRAMES = { "⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏" }

local function setup(pi)
  local timer
  local frame = 0

  local function base_title(ctx)
    local folder = ctx.cwd:match("([^/]+)/*$") or ctx.cwd
    local name = pi.getSessionName()
    return name and ("π - " .. name .. " - " .. folder) or ("π - " .. folder)
  end

  local function stop(ctx)
    if timer then pi.clearInterval(timer) end
    timer = nil
    frame = 0
    ctx.ui.setTitle(base_title(ctx))
  end

  local function start(ctx)
    stop(ctx)
    timer = pi.setInterval(function()
      ctx.ui.setTitle(FRAMES[frame % #FRAMES + 1] .. " " .. base_title(ctx))
      frame = frame + 1
    end, 80)
  end

  pi.on("agent_start", function(_, ctx) start(ctx) end)
  pi.on("agent_end", function(_, ctx) stop(ctx) end)
  pi.on("session_shutdown", function(_, ctx) stop(ctx) end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
