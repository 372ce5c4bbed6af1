-- /overlay-test opens a floating panel that checks overlay drawing: wide
-- characters, colours and emoji against the borders, and a menu whose first
-- two entries take typed text (←/→ move the cursor). Enter reports the choice.
--
--   pi -e extensions/examples/overlay-test.lua
local WIDTH = 70

local function setup(pi)
  local ui = require("pi.ui")

  local function panel(theme, done)
    local selected = 1
    local items = {
      { label = "Search", input = true, text = {}, cursor = 0 },
      { label = "Run", input = true, text = {}, cursor = 0 },
      { label = "Settings" },
      { label = "Cancel" },
    }

    local function handleInput(key)
      if key == "escape" then return done(nil) end
      local item = items[selected]
      if key == "enter" then
        return done({ action = item.label, query = item.input and table.concat(item.text) or nil })
      end
      if key == "up" then
        selected = math.max(1, selected - 1)
      elseif key == "down" then
        selected = math.min(#items, selected + 1)
      elseif item.input then
        if key == "backspace" then
          if item.cursor > 0 then
            table.remove(item.text, item.cursor)
            item.cursor = item.cursor - 1
          end
        elseif key == "left" then
          item.cursor = math.max(0, item.cursor - 1)
        elseif key == "right" then
          item.cursor = math.min(#item.text, item.cursor + 1)
        elseif utf8.len(key) == 1 and key:byte() >= 32 then
          table.insert(item.text, item.cursor + 1, key)
          item.cursor = item.cursor + 1
        end
      end
    end

    local function render()
      local inner = WIDTH - 2
      local border = function(s) return theme.fg("border", s) end
      local function row(content) return border("│") .. ui.padToWidth(content, inner) .. border("│") end
      local lines = {
        border("╭" .. string.rep("─", inner) .. "╮"),
        row(" " .. theme.fg("accent", "🧪 Overlay Test")),
        row(""),
        row(" " .. theme.fg("dim", "─── Edge Cases (borders should align) ───")),
        row(" Wide: " .. theme.fg("warning", "中文日本語한글テスト漢字繁體简体ひらがなカタカナ가나다라마바")),
        row(string.format(" Styled: %s %s %s %s %s %s %s", theme.fg("error", "RED"), theme.fg("success", "GREEN"),
          theme.fg("warning", "YELLOW"), theme.fg("accent", "ACCENT"), theme.fg("dim", "DIM"),
          theme.fg("error", "more"), theme.fg("success", "colors"))),
        row(" Emoji: 👨‍👩‍👧‍👦 🇯🇵 🚀 💻 🎉 🔥 😀 🎯 🌟 💡 🎨 🔧 📦 🏆 🌈 🎪 🎭 🎬 🎮 🎲"),
        row(""),
        row(" " .. theme.fg("dim", "─── Actions ───")),
      }
      for i, item in ipairs(items) do
        local on = i == selected
        local prefix = on and " ▶ " or "   "
        local label = theme.fg(on and "accent" or "text", item.label .. (item.input and ":" or ""))
        if item.input then
          local shown = table.concat(item.text)
          if on then
            local under = item.text[item.cursor + 1] or " "
            shown = table.concat(item.text, "", 1, item.cursor) .. "\27[7m" .. under .. "\27[27m"
              .. table.concat(item.text, "", item.cursor + 2, #item.text)
          end
          lines[#lines + 1] = row(prefix .. label .. " " .. shown)
        else
          lines[#lines + 1] = row(prefix .. label)
        end
      end
      lines[#lines + 1] = row("")
      lines[#lines + 1] = row(" " .. theme.fg("dim", "↑↓ navigate • type to input • Enter select • Esc cancel"))
      lines[#lines + 1] = border("╰" .. string.rep("─", inner) .. "╯")
      return lines
    end

    return { render = render, handleInput = handleInput }
  end

  pi.registerCommand("overlay-test", {
    description = "Test overlay rendering with edge cases",
    handler = function(_, ctx)
      local result = ctx.ui.custom(function(_, theme, _, done) return panel(theme, done) end,
        { overlay = true, overlayOptions = { width = WIDTH } })
      if result then
        ctx.ui.notify(result.query and string.format('%s: "%s"', result.action, result.query) or result.action, "info")
      end
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
