-- A vim-like modal editor on top of pi's editor: Escape enters normal mode,
-- i/a insert, h/j/k/l move, 0/$ line start/end, w/b words, x deletes, dd clears the line.
-- Keys it does not handle go to the normal editor, so Enter, Ctrl+C and the rest still work.
-- Run: pi -e extensions/examples/modal-editor.lua
local function setup(pi)
  local ui = require("pi.ui")
  local NORMAL = {
    h = "left", l = "right", k = "up", j = "down",
    ["0"] = "home", ["$"] = "end", w = "alt+f", b = "alt+b", x = "delete",
  }

  pi.on("session_start", function(_, ctx)
    ctx.ui.setEditorComponent(function(tui, theme)
      local mode, pending = "insert", nil
      local function set_mode(m) mode = m; tui.requestRender() end
      return {
        handleInput = function(key)
          if mode == "insert" then
            if ui.matchesKey(key, "escape") then set_mode("normal"); return true end
            return false
          end
          -- normal mode
          if pending == "d" then
            pending = nil
            if key == "d" then return { "home", "ctrl+k" } end
            return true
          end
          if key == "i" then set_mode("insert"); return true end
          if key == "a" then set_mode("insert"); return "right" end
          if key == "A" then set_mode("insert"); return "end" end
          if key == "d" then pending = "d"; return true end
          if NORMAL[key] then return NORMAL[key] end
          if #key == 1 then return true end -- other letters do nothing in normal mode
          return false -- enter, ctrl+c, arrows... behave as usual
        end,
        render = function(width)
          local label = mode == "normal" and theme.fg("warning", "-- NORMAL --") or theme.fg("muted", "-- INSERT --")
          return { ui.truncateToWidth(label, width) }
        end,
      }
    end)
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
