-- Follows macOS dark/light mode: the dark theme when the system is dark,
-- the light theme otherwise (and on systems without osascript).
--
--   pi -e extensions/examples/mac-system-theme.lua
return function(pi)
  local timer

  local function is_dark()
    local ok, result = pcall(pi.exec, "osascript",
      { "-e", 'tell application "System Events" to tell appearance preferences to return dark mode' })
    return ok and result.code == 0 and result.stdout:match("^%s*(.-)%s*$") == "true"
  end

  pi.on("session_start", function(_, ctx)
    local current = is_dark() and "dark" or "light"
    ctx.ui.setTheme(current)
    if timer then pi.clearInterval(timer) end
    timer = pi.setInterval(function()
      local wanted = is_dark() and "dark" or "light"
      if wanted ~= current then
        current = wanted
        ctx.ui.setTheme(current)
      end
    end, 2000)
  end)

  pi.on("session_shutdown", function()
    if timer then pi.clearInterval(timer) end
    timer = nil
  end)
end
