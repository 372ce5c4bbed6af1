-- Small drawing helpers for the orchestration widgets. Widgets are plain line
-- lists, so they show in the terminal and over RPC alike.

local M = {}

M.ICONS = { idle = "○", pending = "○", running = "●", done = "✓", error = "✗", killed = "■" }
M.COLORS = { idle = "dim", pending = "dim", running = "accent", done = "success", error = "error", killed = "warning" }

--- `text` in theme colour `token`, or plain when no theme is at hand.
---@param ctx pi.Context|nil
function M.paint(ctx, token, text)
  local theme = ctx and ctx.hasUI and ctx.ui.theme
  if not theme then return text end
  local ok, out = pcall(theme.fg, token, text)
  return ok and out or text
end

--- The coloured status icon, e.g. "✓".
function M.icon(ctx, status)
  return M.paint(ctx, M.COLORS[status] or "dim", M.ICONS[status] or "?")
end

--- At most `n` characters of `text` on one line.
function M.clip(text, n)
  text = tostring(text or ""):gsub("%s+", " ")
  if utf8.len(text) and utf8.len(text) > n then
    return text:sub(1, utf8.offset(text, n) - 1) .. "…"
  end
  return text
end

--- Seconds as "42s" or "3m07s".
function M.duration(seconds)
  if seconds < 60 then return seconds .. "s" end
  return string.format("%dm%02ds", seconds // 60, seconds % 60)
end

return M
