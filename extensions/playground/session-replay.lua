-- Session replay: /replay opens a scrollable timeline of the current branch in an
-- overlay. ↑/↓ (or k/j) move, Enter expands or folds an entry, Esc (or q) closes.
-- Run: pi -e extensions/playground/session-replay.lua
local function setup(pi)
  local ui = require("pi.ui")
  local fmt = require("lib.fmt")
  require("lib.defaults").apply(pi, "session-replay")
  local tr = require("lib.i18n").load(pi)
  local MAX_EXPANDED = 40

  -- "2026-11-23T10:23:01.000Z" → "10:23:01" and seconds since midnight.
  local function clock(stamp)
    local h, m, s = tostring(stamp or ""):match("T(%d%d):(%d%d):(%d%d)")
    if not h then return nil, nil end
    return h .. ":" .. m .. ":" .. s, tonumber(h) * 3600 + tonumber(m) * 60 + tonumber(s)
  end

  local function tool_calls(content)
    local names = {}
    for _, block in ipairs(type(content) == "table" and content or {}) do
      if block.type == "toolCall" then names[#names + 1] = block.name end
    end
    return names
  end

  -- One timeline item per message on the branch: kind, label, time, text.
  local function history(ctx)
    local items = {}
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      local m = entry.type == "message" and entry.message
      local item
      if m and m.role == "user" then
        item = { kind = "user", label = tr("replay.user"), text = fmt.text(m.content) }
      elseif m and m.role == "assistant" then
        local text, calls = fmt.text(m.content), tool_calls(m.content)
        if #calls > 0 then
          text = (text ~= "" and (text .. "\n") or "") .. tr("replay.calls", { tools = table.concat(calls, ", ") })
        end
        item = { kind = "assistant", label = tr("replay.assistant"), text = text }
      elseif m and m.role == "toolResult" then
        item = { kind = "tool", label = tr("replay.tool", { tool = tostring(m.toolName) }), text = fmt.text(m.content), error = m.isError }
      elseif m and m.role == "bashExecution" then
        item = { kind = "tool", label = tr("replay.shell"), text = "$ " .. tostring(m.command) .. "\n" .. tostring(m.output or "") }
      elseif m and m.role == "custom" then
        item = { kind = "custom", label = "[" .. tostring(m.customType) .. "]", text = fmt.text(m.content) }
      elseif entry.type == "compaction" then
        item = { kind = "custom", label = tr("replay.compaction"), text = tostring(entry.summary or "") }
      end
      if item then
        item.time, item.seconds = clock(entry.timestamp)
        items[#items + 1] = item
      end
    end
    return items
  end

  local ICON = { user = "▶", assistant = "◆", tool = "⚙", custom = "◇" }
  local COLOUR = { user = "accent", assistant = "success", tool = "warning", custom = "muted" }

  local function timeline(items)
    -- Texts drawn in render, translated once per opening.
    local T = {
      failed = tr("replay.failed"), empty = tr("replay.empty"), title = tr("replay.title"),
      hints = tr("replay.hints"), entries = tr("replay.entries", { count = #items }),
    }
    return function(tui, theme, _, done)
      local selected, top = 1, 1
      local expanded = {}

      -- Lines of item `i` at `width`: a heading and a preview or the whole text.
      local function item_lines(i, width)
        local item = items[i]
        local head = theme.fg(COLOUR[item.kind], ICON[item.kind] .. " " .. item.label)
        if item.time then head = head .. theme.fg("dim", "  [" .. item.time .. "]") end
        local prev = items[i - 1]
        if item.seconds and prev and prev.seconds then
          head = head .. theme.fg("dim", string.format(" (+%ds)", math.max(0, item.seconds - prev.seconds)))
        end
        if item.error then head = head .. theme.fg("error", "  " .. T.failed) end
        local marker = i == selected and theme.fg("accent", "› ") or "  "
        local lines = { ui.truncateToWidth(marker .. head, width) }
        local text = item.text ~= "" and item.text or T.empty
        if expanded[i] then
          local body = ui.wrapTextWithAnsi(text, math.max(1, width - 4))
          for n, l in ipairs(body) do
            if n > MAX_EXPANDED then
              lines[#lines + 1] = theme.fg("dim", "    … +" .. (#body - MAX_EXPANDED))
              break
            end
            lines[#lines + 1] = "    " .. theme.fg("muted", l)
          end
        else
          local first = text:match("[^\n]*")
          lines[#lines + 1] = ui.truncateToWidth("    " .. theme.fg("dim", first), width)
        end
        if i == selected then
          for n, l in ipairs(lines) do lines[n] = theme.bg("selectedBg", ui.padToWidth(l, width)) end
        end
        return lines
      end

      local component = {}
      function component.render(width)
        local rule = theme.fg("border", string.rep("─", width))
        local body_rows = math.max(4, math.floor((tui.height or 24) * 0.8) - 5)
        -- Every item's lines, and where the selected one starts and ends.
        local all, first, last = {}, 1, 1
        for i = 1, #items do
          if i == selected then first = #all + 1 end
          for _, l in ipairs(item_lines(i, width)) do all[#all + 1] = l end
          if i == selected then last = #all end
        end
        if first < top then top = first end
        if last > top + body_rows - 1 then top = math.max(first, last - body_rows + 1) end
        if first < top then top = first end
        local out = {
          ui.truncateToWidth(theme.fg("accent", theme.bold(" " .. T.title))
            .. theme.fg("dim", string.format("  |  %s  |  %d/%d", T.entries, selected, #items)), width),
          rule,
        }
        for n = top, math.min(#all, top + body_rows - 1) do out[#out + 1] = all[n] end
        out[#out + 1] = rule
        out[#out + 1] = ui.truncateToWidth(theme.fg("dim", " " .. T.hints), width)
        return out
      end

      function component.handleInput(key)
        if ui.matchesKey(key, "up") or key == "k" then
          selected = math.max(1, selected - 1)
        elseif ui.matchesKey(key, "down") or key == "j" then
          selected = math.min(#items, selected + 1)
        elseif ui.matchesKey(key, "home") then
          selected = 1
        elseif ui.matchesKey(key, "end") then
          selected = #items
        elseif ui.matchesKey(key, "enter") or key == " " then
          expanded[selected] = not expanded[selected]
        elseif ui.matchesKey(key, "escape") or key == "q" then
          done(nil)
        end
        return true
      end
      return component
    end
  end

  pi.registerCommand("replay", {
    description = tr("replay.cmd"),
    handler = function(_, ctx)
      local items = history(ctx)
      if #items == 0 then
        ctx.ui.notify(tr("replay.nothing"), "info")
        return
      end
      ctx.ui.custom(timeline(items), {
        overlay = true,
        overlayOptions = { anchor = "center", width = "80%", maxHeight = "80%" },
      })
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "$extension" } } },
  setup = setup,
}
