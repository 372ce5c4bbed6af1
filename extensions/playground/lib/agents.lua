-- Agent definitions, teams and chains: the one loader system-select, cross-agent,
-- agent-team, agent-chain and pi-pi share.
--
-- An agent is a Markdown file with YAML frontmatter; the body is its system prompt:
--
--   ---
--   name: planner
--   description: Plans the work, never edits
--   tools: read,grep,find,ls
--   ---
--   You are a planner. ...
--
-- Folders, searched in this order (the first definition of a name wins):
--   the project: .pi/agents/, agents/, .claude/agents/, .gemini/agents/, .codex/agents/
--   your home:   ~/.pi/agent/agents/, ~/.pi/agents/, ~/.claude/agents/, ~/.gemini/agents/, ~/.codex/agents/
--   pi's own:    extensions/playground/agents/ (bundled with the playground)
-- Experts for pi-pi live in a `pi-pi/` folder inside any of them.
-- Teams are `teams.yaml` and chains `agent-chain.yaml`, in .pi/agents/ (yours)
-- and in the bundled folder; a team or chain of yours replaces a bundled one of
-- the same name. Everything is read with pi's YAML parser (`pi.yaml`).

local M = {}

M.DEFAULT_TOOLS = { "read", "grep", "find", "ls" }

M.PROJECT_DIRS = { ".pi/agents", "agents", ".claude/agents", ".gemini/agents", ".codex/agents" }
M.HOME_DIRS = { ".pi/agent/agents", ".pi/agents", ".claude/agents", ".gemini/agents", ".codex/agents" }

--- The user's home folder ("" when unknown).
function M.home()
  return os.getenv("HOME") or os.getenv("USERPROFILE") or ""
end

--- pi's agent folder (`$PI_CODING_AGENT_DIR` or ~/.pi/agent).
function M.agent_dir()
  local dir = os.getenv("PI_CODING_AGENT_DIR")
  if dir and dir ~= "" then return dir end
  local home = M.home()
  return home ~= "" and (home .. "/.pi/agent") or nil
end

--- The bundled folder (agents, teams and chains that ship with the playground).
---@param pi pi.API
function M.bundled_dir(pi)
  return pi.extensionDir .. "/agents"
end

--- Every folder searched, in order, as `{dir, label}`.
---@param pi pi.API
---@param sub? string a sub-folder of each (e.g. "pi-pi")
function M.folders(pi, sub)
  local suffix = sub and ("/" .. sub) or ""
  local out = {}
  for _, dir in ipairs(M.PROJECT_DIRS) do
    out[#out + 1] = { dir = dir .. suffix, label = dir .. suffix }
  end
  local home = M.home()
  if home ~= "" then
    local agent = M.agent_dir()
    for _, dir in ipairs(M.HOME_DIRS) do
      local path = home .. "/" .. dir
      if dir == ".pi/agent/agents" and agent then path = agent .. "/agents" end
      out[#out + 1] = { dir = path .. suffix, label = "~/" .. dir .. suffix }
    end
  end
  out[#out + 1] = { dir = M.bundled_dir(pi) .. suffix, label = "bundled", bundled = true }
  return out
end

--- Frontmatter fields and body of a Markdown file, read with the YAML parser.
--- Returns fields, body; or nil and why.
---@param pi pi.API
---@param text string
function M.parse(pi, text)
  local fields, body = pi.yaml.frontmatter(text)
  if not fields then return nil, body end
  return fields, body
end

--- A frontmatter value as a list of names: YAML list, or "a, b" / "a,b".
---@return string[]
function M.list(value)
  local out = {}
  if type(value) == "table" then
    for _, item in ipairs(value) do
      if item ~= nil then out[#out + 1] = tostring(item) end
    end
    return out
  end
  if type(value) ~= "string" then return out end
  for item in value:gmatch("[^,%s]+") do
    out[#out + 1] = item
  end
  return out
end

--- Turn one definition file into an agent. Returns it, or nil and why.
---@param pi pi.API
---@param text string
---@param path string
---@param fallback_name string the file name without `.md`
function M.definition(pi, text, path, fallback_name)
  local fields, body = M.parse(pi, text)
  if not fields then
    return nil, path .. ": " .. tostring(body)
  end
  local name = fields.name ~= nil and tostring(fields.name) or fallback_name
  if name == "" then
    return nil, path .. ": the frontmatter needs a `name`"
  end
  local tools = M.list(fields.tools)
  if #tools == 0 then tools = { table.unpack(M.DEFAULT_TOOLS) } end
  return {
    name = name,
    description = fields.description ~= nil and tostring(fields.description) or "",
    tools = tools,
    toolsCsv = table.concat(tools, ","),
    prompt = body,
    path = path,
    fields = fields,
  }
end

--- Markdown files directly in `dir` (sorted), as `{path, name}`.
function M.md_files(pi, dir)
  local out = {}
  for _, entry in ipairs(pi.fs.list(dir) or {}) do
    if not entry.isDir and entry.name:match("%.md$") then
      out[#out + 1] = { path = dir .. "/" .. entry.name, name = entry.name:sub(1, -4) }
    end
  end
  return out
end

--- Every agent definition. Returns `byName`, the ordered list (each with its
--- `source` label) and the errors of broken files.
---@param pi pi.API
---@param opts? {sub?: string, folders?: {dir: string, label: string}[]}
function M.discover(pi, opts)
  opts = opts or {}
  local by_name, list, errors = {}, {}, {}
  for _, folder in ipairs(opts.folders or M.folders(pi, opts.sub)) do
    for _, file in ipairs(M.md_files(pi, folder.dir)) do
      local text, why = pi.fs.read(file.path)
      local def, err
      if text then def, err = M.definition(pi, text, file.path, file.name) else err = why end
      if def and not by_name[def.name] then
        def.source = folder.label
        def.bundled = folder.bundled == true
        by_name[def.name] = def
        list[#list + 1] = def
      elseif err then
        errors[#errors + 1] = err
      end
    end
  end
  return by_name, list, errors
end

-- A YAML mapping file from .pi/agents/ and from the bundled folder: the project's
-- entries first (in file order), then bundled ones it does not redefine.
-- Returns names (ordered), entries by name, errors.
local function load_mapping(pi, file, check)
  local names, entries, errors = {}, {}, {}
  for _, path in ipairs({ ".pi/agents/" .. file, M.bundled_dir(pi) .. "/" .. file }) do
    local text = pi.fs.read(path)
    if text then
      local data, why = pi.yaml.decode(text)
      if why then
        errors[#errors + 1] = path .. ": " .. why
      elseif data ~= nil and type(data) ~= "table" then
        errors[#errors + 1] = path .. ": expected a mapping of names"
      elseif data then
        for _, name in ipairs(pi.yaml.keys(data)) do
          local value, problem = check(data[name])
          if problem then
            errors[#errors + 1] = path .. ": " .. name .. ": " .. problem
          elseif not entries[name] then
            entries[name] = value
            names[#names + 1] = name
          end
        end
      end
    end
  end
  return names, entries, errors
end

--- Teams from `teams.yaml` (`name: [agent, ...]`). Returns the ordered team
--- names, members by team name, and errors.
---@param pi pi.API
function M.teams(pi)
  return load_mapping(pi, "teams.yaml", function(value)
    if type(value) ~= "table" then return nil, "a team is a list of agent names" end
    return M.list(value)
  end)
end

--- Chains from `agent-chain.yaml` (`name: {description, steps: [{agent, prompt}]}`).
--- Returns the ordered chain names, chains by name, and errors.
---@param pi pi.API
function M.chains(pi)
  return load_mapping(pi, "agent-chain.yaml", function(value)
    if type(value) ~= "table" or type(value.steps) ~= "table" or #value.steps == 0 then
      return nil, "a chain needs `steps`: a list of {agent, prompt}"
    end
    local steps = {}
    for i, step in ipairs(value.steps) do
      if type(step) ~= "table" or type(step.agent) ~= "string" then
        return nil, "step " .. i .. " needs an `agent`"
      end
      steps[#steps + 1] = { agent = step.agent, prompt = step.prompt and tostring(step.prompt) or nil }
    end
    return { description = value.description and tostring(value.description) or "", steps = steps }
  end)
end

--- "plan-reviewer" -> "Plan Reviewer".
function M.display_name(name)
  return (name:gsub("[-_]", " "):gsub("(%a)([%w]*)", function(a, b) return a:upper() .. b end))
end

-- The translation of `key` for a bundled agent, or nil when there is none.
local function bundled_text(def, tr, field)
  if not (def.bundled and tr) then return nil end
  local key = "agent." .. def.name .. "." .. field
  local text = tr(key)
  if text:find(key, 1, true) then return nil end
  return text
end

--- How an agent is named on screen: a bundled agent's name in the user's
--- language, else "plan-reviewer" -> "Plan Reviewer".
---@param def table an agent from discover
---@param tr? fun(key: string, params?: table): string
function M.label(def, tr)
  return bundled_text(def, tr, "name") or M.display_name(def.name)
end

--- An agent's description on screen (bundled agents' in the user's language).
function M.describe(def, tr)
  return bundled_text(def, tr, "description") or def.description
end

--- The first non-empty line of `body`, without heading marks, cut to `width`.
function M.summary(body, width)
  for line in (body .. "\n"):gmatch("([^\n]*)\n") do
    line = line:gsub("^#+%s*", ""):gsub("^%s+", ""):gsub("%s+$", "")
    if line ~= "" then
      if #line > width then line = line:sub(1, width - 1) .. "…" end
      return line
    end
  end
  return ""
end

--- Files ending in `ext` under `dir`, down to `depth` folders, as `{path, name}`
--- where `name` joins sub-folders with `:` (`git/commit.md` -> `git:commit`).
function M.files(pi, dir, ext, depth)
  local out = {}
  local function walk(folder, prefix, left)
    for _, e in ipairs(pi.fs.list(folder) or {}) do
      local path = folder .. "/" .. e.name
      if e.isDir then
        if left > 0 and e.name:sub(1, 1) ~= "." then walk(path, prefix .. e.name .. ":", left - 1) end
      elseif e.name:sub(-#ext) == ext and #e.name > #ext then
        out[#out + 1] = { path = path, name = prefix .. e.name:sub(1, -#ext - 1) }
      end
    end
  end
  walk(dir, "", depth or 0)
  return out
end

return M
