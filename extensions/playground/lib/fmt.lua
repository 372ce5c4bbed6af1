-- Small text helpers shared by the playground extensions.
local ui = require("pi.ui")

local M = {}

--- A token count for a footer: 950, 12.3k, 1.2M.
function M.count(n)
  n = n or 0
  if n >= 1000000 then return string.format("%.1fM", n / 1000000) end
  if n >= 10000 then return string.format("%dk", math.floor(n / 1000 + 0.5)) end
  if n >= 1000 then return string.format("%.1fk", n / 1000) end
  return tostring(math.floor(n))
end

--- A context meter of `cells` characters: `###-------` for 30%.
function M.bar(percent, cells)
  cells = cells or 10
  local filled = math.floor((percent or 0) / 100 * cells + 0.5)
  filled = math.max(0, math.min(cells, filled))
  return string.rep("#", filled) .. string.rep("-", cells - filled)
end

--- `left` and `right` on one line of exactly `width` columns (left wins when tight).
function M.spread(left, right, width)
  local gap = width - ui.visibleWidth(left) - ui.visibleWidth(right)
  if gap < 1 then
    return ui.truncateToWidth(left .. " " .. right, width)
  end
  return left .. string.rep(" ", gap) .. right
end

--- The last component of a path.
function M.basename(path)
  return (path or ""):gsub("/+$", ""):match("([^/]+)$") or path or ""
end

--- The plain text of a message's content (string or content blocks).
function M.text(content)
  if type(content) == "string" then return content end
  local parts = {}
  for _, block in ipairs(content or {}) do
    if block.type == "text" and block.text then parts[#parts + 1] = block.text end
  end
  return table.concat(parts, "\n")
end

return M
