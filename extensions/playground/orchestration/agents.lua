-- Specialist definitions shared by the orchestration extensions.
--
-- A specialist is a Markdown file with a small frontmatter:
--
--   ---
--   name: planner
--   description: Plans the work, never edits
--   tools: read,grep,find,ls
--   ---
--   You are a planner. ...            <- appended to the sub-agent's system prompt
--
-- Teams and chains live in Lua data files (`.pi/agents/teams.lua`,
-- `.pi/agents/chains.lua`) that return one table.

local M = {}

-- Folders searched for specialists, relative to the working directory; the first
-- definition of a name wins. The agent folder's `agents/` is searched last.
M.DIRS = { ".pi/agents", "agents", ".claude/agents" }

M.DEFAULT_TOOLS = "read,grep,find,ls"

local function trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

local function unquote(s)
  local inner = s:match('^"(.*)"$') or s:match("^'(.*)'$")
  return inner or s
end

--- Parse one definition file. Returns the definition, or nil and why.
---@param text string
---@param path string shown in errors
function M.parse(text, path)
  text = text:gsub("\r\n", "\n")
  local head, body = text:match("^%-%-%-\n(.-)\n%-%-%-\n?(.*)$")
  if not head then
    return nil, path .. ": no frontmatter; start the file with a '---' block holding at least 'name: <agent-name>'"
  end
  local fields = {}
  for line in head:gmatch("[^\n]+") do
    local key, value = line:match("^%s*([%w_-]+)%s*:%s*(.-)%s*$")
    if key then fields[key] = unquote(value) end
  end
  if not fields.name or fields.name == "" then
    return nil, path .. ": the frontmatter needs a 'name:' line"
  end
  local tools = (fields.tools and fields.tools ~= "") and fields.tools or M.DEFAULT_TOOLS
  return {
    name = fields.name,
    description = fields.description or "",
    tools = (tools:gsub("%s", "")),
    prompt = trim(body),
    path = path,
  }
end

local function agent_dir()
  local dir = os.getenv("PI_CODING_AGENT_DIR")
  if dir and dir ~= "" then return dir end
  local home = os.getenv("HOME")
  return home and (home .. "/.pi/agent") or nil
end

--- Every definition in `dirs` (default: M.DIRS plus the agent folder's `agents/`).
--- Returns `byName`, the ordered list and the errors of broken files.
---@param pi pi.API
---@param dirs? string[]
function M.discover(pi, dirs)
  if not dirs then
    dirs = { table.unpack(M.DIRS) }
    local global = agent_dir()
    if global then dirs[#dirs + 1] = global .. "/agents" end
  end
  local by_name, list, errors = {}, {}, {}
  for _, dir in ipairs(dirs) do
    for _, entry in ipairs(pi.fs.list(dir) or {}) do
      if not entry.isDir and entry.name:match("%.md$") then
        local path = dir .. "/" .. entry.name
        local text, why = pi.fs.read(path)
        local def, err
        if text then def, err = M.parse(text, path) else err = why end
        if def and not by_name[def.name] then
          by_name[def.name] = def
          list[#list + 1] = def
        elseif err then
          errors[#errors + 1] = err
        end
      end
    end
  end
  return by_name, list, errors
end

--- Load a Lua data file that returns a table. Returns nil (and no error) when the
--- file does not exist, or nil and why when it is broken.
---@param pi pi.API
---@param path string
function M.load_data(pi, path)
  if not pi.fs.exists(path) then return nil end
  local text, why = pi.fs.read(path)
  if not text then return nil, why end
  local chunk, err = load(text, "@" .. path, "t", {})
  if not chunk then return nil, err end
  local ok, value = pcall(chunk)
  if not ok then return nil, tostring(value) end
  if type(value) ~= "table" then
    return nil, path .. ": must return a table (e.g. `return { full = { \"scout\", \"builder\" } }`)"
  end
  return value
end

--- Sorted keys of a table.
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  return keys
end

--- "plan-reviewer" -> "Plan Reviewer".
function M.display_name(name)
  return (name:gsub("[-_]", " "):gsub("(%a)([%w]*)", function(a, b) return a:upper() .. b end))
end

return M
