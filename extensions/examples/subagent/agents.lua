-- Finding agent definitions: markdown files with a name, description and
-- optional tools and model in their front matter; the body is the agent's
-- system prompt. User agents live in ~/.pi/agent/agents, project agents in
-- the nearest .pi/agents folder.
local M = {}

local function front_matter(text)
  local head, body = text:match("^%-%-%-\r?\n(.-)\r?\n%-%-%-\r?\n?(.*)$")
  if not head then return {}, text end
  local fields = {}
  for line in head:gmatch("[^\n]+") do
    local key, value = line:match("^%s*([%w_%-]+)%s*:%s*(.-)%s*$")
    if key then fields[key] = value:gsub('^"(.*)"$', "%1") end
  end
  return fields, body
end

local function load_dir(pi, dir, source)
  local agents = {}
  for _, entry in ipairs(pi.fs.list(dir) or {}) do
    if not entry.isDir and entry.name:match("%.md$") then
      local path = dir .. "/" .. entry.name
      local text = pi.fs.read(path)
      local fields, body = front_matter(text or "")
      if fields.name and fields.description then
        local tools = {}
        for tool in (fields.tools or ""):gmatch("[^,%s]+") do tools[#tools + 1] = tool end
        agents[#agents + 1] = {
          name = fields.name,
          description = fields.description,
          tools = #tools > 0 and tools or nil,
          model = fields.model,
          systemPrompt = body,
          source = source,
          filePath = path,
        }
      end
    end
  end
  return agents
end

local function nearest_project_dir(pi, cwd)
  local dir = cwd
  while true do
    local candidate = dir .. "/.pi/agents"
    if pi.fs.list(candidate) then return candidate end
    local parent = dir:match("^(.*)/[^/]+$")
    if not parent or parent == dir then return nil end
    dir = parent == "" and "/" or parent
    if dir == "/" then
      return pi.fs.list("/.pi/agents") and "/.pi/agents" or nil
    end
  end
end

--- Agents for `scope` ("user", "project" or "both"; project wins on a name clash).
function M.discover(pi, cwd, scope)
  local project_dir = nearest_project_dir(pi, cwd)
  local found, order = {}, {}
  local function add(list)
    for _, agent in ipairs(list) do
      if not found[agent.name] then order[#order + 1] = agent.name end
      found[agent.name] = agent
    end
  end
  if scope ~= "project" then add(load_dir(pi, pi.agentDir .. "/agents", "user")) end
  if scope ~= "user" and project_dir then add(load_dir(pi, project_dir, "project")) end
  local agents = {}
  for i, name in ipairs(order) do agents[i] = found[name] end
  return agents, project_dir
end

return M
