-- Follows macOS dark/light mode: the dark theme when the system is dark,
-- the light theme otherwise (and on systems without osascript).
--
--   pi -e extensions/examples/mac-system-theme.lua
local SCRIPT = 'tell application "System Events" to tell appearance preferences to return dark mode'

local function setup(pi)
  local timer
  local current

  -- Asks macOS in the background and calls back with "dark" or "light".
  local function appearance(callback)
    local answer = ""
    local ok = pcall(pi.spawn, "osascript", { "-e", SCRIPT }, {
      onStdout = function(line) answer = answer .. line end,
      onExit = function(code)
        callback((code == 0 and answer:match("^%s*(.-)%s*$") == "true") and "dark" or "light")
      end,
    })
    if not ok then callback("light") end
  end

  local function sync(ctx)
    appearance(function(theme)
      if theme ~= current then
        current = theme
        ctx.ui.setTheme(theme)
      end
    end)
  end

  pi.on("session_start", function(_, ctx)
    current = nil
    sync(ctx)
    if timer then pi.clearInterval(timer) end
    timer = pi.setInterval(function() sync(ctx) end, 2000)
  end)

  pi.on("session_shutdown", function()
    if timer then pi.clearInterval(timer) end
    timer = nil
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "osascript" } },
  setup = setup,
}
