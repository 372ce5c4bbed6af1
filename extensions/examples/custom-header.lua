-- Replaces pi's header (logo and key hints) with the pi mascot;
-- /builtin-header brings the usual header back.
--
--   pi -e extensions/examples/custom-header.lua
local BLOCK, PUPIL = "█", "▌"

local function mascot(theme)
  local blue = function(s) return theme.fg("accent", s) end
  local eye = BLOCK .. theme.fg("dim", PUPIL)
  local leg = "     " .. blue(BLOCK:rep(2)) .. "    " .. blue(BLOCK:rep(2))
  return {
    "",
    "     " .. eye .. "  " .. eye,
    "  " .. blue(BLOCK:rep(14)),
    leg, leg, leg, leg,
    "",
  }
end

local function setup(pi)
  local version -- pi's version, asked once

  pi.on("session_start", function(_, ctx)
    if not ctx.hasUI then return end
    if not version then
      local run = pi.exec(pi.execPath, { "--version" })
      version = run.code == 0 and run.stdout:match("^%s*(.-)%s*$") or "?"
    end
    ctx.ui.setHeader(function(_, theme)
      return {
        render = function()
          local lines = mascot(theme)
          lines[#lines + 1] = theme.fg("muted", "   shitty coding agent") .. theme.fg("dim", " v" .. version)
          return lines
        end,
      }
    end)
  end)

  pi.registerCommand("builtin-header", {
    description = "Restore built-in header with keybinding hints",
    handler = function(_, ctx)
      ctx.ui.setHeader(nil)
      ctx.ui.notify("Built-in header restored", "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "$pi" } },
  setup = setup,
}
