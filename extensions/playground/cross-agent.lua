-- cross-agent: brings the commands, skills and agents of Claude Code, Gemini
-- CLI and Codex into pi. Command files become slash commands under their own
-- name (`.claude/commands/prime.md` is `/prime`, as in the other tool) and under
-- the tool's prefix (`/claude:prime`, which never clashes); running one
-- sends its text as a user message with `$ARGUMENTS`, `$@`, `$1`..`$9` and
-- `{{args}}` filled in. Skills and agents are listed in a startup summary.
-- Project folders are read before the home folder; the first command of a
-- name wins.
--
--   pi -e extensions/playground/cross-agent.lua

local agents = require("lib.agents")

local TOOLS = {
  { id = "claude", dir = ".claude", commands = { "commands" } },
  { id = "gemini", dir = ".gemini", commands = { "commands" } },
  { id = "codex", dir = ".codex", commands = { "prompts", "commands" } },
}

--- Fill the placeholders of a command template with `args`. Text without any
--- placeholder gets the arguments appended.
local function expand(template, args)
  args = args or ""
  local parts = {}
  for word in args:gmatch("%S+") do
    parts[#parts + 1] = word
  end
  local used = false
  local out = template:gsub("%$(%w+)", function(name)
    if name == "ARGUMENTS" then
      used = true
      return args
    end
    local n = tonumber(name)
    if n and n >= 1 and n <= 9 and #name == 1 then
      used = true
      return parts[n] or ""
    end
    return nil
  end)
  out = out:gsub("%$@", function()
    used = true
    return args
  end)
  out = out:gsub("{{args}}", function()
    used = true
    return args
  end)
  if not used and args ~= "" then
    out = out .. "\n\n" .. args
  end
  return out
end

--- A command file as `{description, template}`, or nil when it has no prompt
--- (and the reason, for a file that does not parse).
---@param pi pi.API
local function read_command(pi, text, file)
  if file.path:sub(-5) == ".toml" then
    local data, why = pi.toml.decode(text)
    if not data then return nil, file.path .. ": " .. why end
    if type(data.prompt) ~= "string" then return nil end
    local description = type(data.description) == "string" and data.description or agents.summary(data.prompt, 60)
    return { description = description, template = data.prompt }
  end
  local fields, body = agents.parse(pi, text)
  if not fields then return nil, file.path .. ": " .. tostring(body) end
  local description = fields.description ~= nil and tostring(fields.description) or agents.summary(body, 60)
  if fields["argument-hint"] ~= nil then
    description = description .. " " .. tostring(fields["argument-hint"])
  end
  return { description = description, template = body }
end

-- `name` in the project and in the home folder, as `{dir, label}`.
local function roots(name)
  local out = { { dir = name, label = name } }
  local home = agents.home()
  if home ~= "" then out[2] = { dir = home .. "/" .. name, label = "~/" .. name } end
  return out
end

---@param pi pi.API
local function setup(pi)
  local tr = require("lib.i18n").load(pi)
  require("lib.defaults").apply(pi, "cross-agent")
  local found = {} -- {label, kind, items} groups for the summary
  local registered = {}
  local problems = {}
  -- pi's own commands keep their names; a command file may not shadow them.
  local builtin = {}
  for _, c in ipairs(pi.getCommands and pi.getCommands() or {}) do builtin[c.name] = true end

  local function group(label, kind, items)
    if #items > 0 then
      found[#found + 1] = { label = label, kind = kind, items = items }
    end
  end

  local function register(tool, root, file)
    local text = pi.fs.read(file.path)
    local command, why
    if text then command, why = read_command(pi, text, file) end
    if why then problems[#problems + 1] = why end
    local prefixed = tool.id .. ":" .. file.name
    if not command or registered[prefixed] then
      return nil
    end
    local spec = {
      description = "[" .. root.label .. "] " .. command.description,
      handler = function(args)
        pi.sendUserMessage(expand(command.template, args))
      end,
    }
    registered[prefixed] = true
    pi.registerCommand(prefixed, spec)
    -- The seed's name: the file name itself; the first command of a name wins.
    if not registered[file.name] and not builtin[file.name] then
      registered[file.name] = true
      pi.registerCommand(file.name, spec)
      return "/" .. file.name
    end
    return "/" .. prefixed
  end

  local function named_files(folder, ext, depth)
    local names = {}
    for _, file in ipairs(agents.files(pi, folder, ext, depth)) do
      local def = agents.definition(pi, pi.fs.read(file.path) or "", file.path, file.name)
      names[#names + 1] = "@" .. (def and def.name or file.name)
    end
    return names
  end

  local function skills(folder)
    local names = {}
    for _, entry in ipairs(pi.fs.list(folder) or {}) do
      if entry.isDir then
        local text = pi.fs.read(folder .. "/" .. entry.name .. "/SKILL.md")
        if text then
          local fields = agents.parse(pi, text)
          names[#names + 1] = fields and fields.name ~= nil and tostring(fields.name) or entry.name
        end
      end
    end
    return names
  end

  for _, place in ipairs({ "project", "home" }) do
    for _, tool in ipairs(TOOLS) do
      local root = roots(tool.dir)[place == "project" and 1 or 2]
      if root then
        local commands = {}
        for _, sub in ipairs(tool.commands) do
          local folder = root.dir .. "/" .. sub
          local files = agents.files(pi, folder, ".md", 3)
          if tool.id == "gemini" then
            for _, f in ipairs(agents.files(pi, folder, ".toml", 3)) do
              files[#files + 1] = f
            end
          end
          for _, file in ipairs(files) do
            commands[#commands + 1] = register(tool, root, file)
          end
        end
        group(root.label, "command", commands)
        group(root.label .. "/skills", "skill", skills(root.dir .. "/skills"))
        group(root.label .. "/agents", "agent", named_files(root.dir .. "/agents", ".md", 0))
      end
    end
    local pi_root = roots(".pi")[place == "project" and 1 or 2]
    if pi_root then
      local folder = place == "project" and pi_root.dir .. "/agents" or pi_root.dir .. "/agent/agents"
      local label = place == "project" and ".pi/agents" or "~/.pi/agent/agents"
      group(label, "agent", named_files(folder, ".md", 0))
    end
  end

  pi.on("session_start", function(_, ctx)
    for _, p in ipairs(problems) do ctx.ui.notify("cross-agent: " .. p, "warning") end
    if #found == 0 then
      return
    end
    local lines = { tr("cross.found") }
    for _, g in ipairs(found) do
      lines[#lines + 1] = "  " .. g.label .. " (" .. tr("cross.kind." .. g.kind, { count = #g.items }) .. "): "
        .. table.concat(g.items, ", ")
    end
    ctx.ui.notify(table.concat(lines, "\n"), "info")
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = {
      -- Agent definitions of the project, pi and other agents.
      read = { ".", "$agent", "$extension", "~/.pi", "~/.claude", "~/.gemini", "~/.codex" },
    },
    env = { "HOME", "USERPROFILE", "PI_CODING_AGENT_DIR" },
  },
  setup = setup,
}
