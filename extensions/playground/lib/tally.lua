-- Per-tool call counts: rebuilt from the session branch, bumped as tools finish.
local M = {}
M.__index = M

--- An empty tally.
function M.new()
  return setmetatable({ counts = {}, total = 0 }, M)
end

--- Count one call of `name`.
function M.add(self, name)
  self.counts[name] = (self.counts[name] or 0) + 1
  self.total = self.total + 1
end

--- Start over from the tool results on the current branch.
function M.rebuild(self, ctx)
  self.counts, self.total = {}, 0
  for _, entry in ipairs(ctx.sessionManager.getBranch()) do
    local m = entry.type == "message" and entry.message
    if m and m.role == "toolResult" and m.toolName then self:add(m.toolName) end
  end
end

--- `{name, count}` pairs, most used first (ties by name).
function M.sorted(self)
  local list = {}
  for name, count in pairs(self.counts) do list[#list + 1] = { name = name, count = count } end
  table.sort(list, function(a, b)
    if a.count ~= b.count then return a.count > b.count end
    return a.name < b.name
  end)
  return list
end

return M
