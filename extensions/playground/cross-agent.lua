-- cross-agent: brings the commands, skills and agents of Claude Code, Gemini
-- CLI and Codex into pi. Command files become slash commands named after
-- their tool (`.claude/commands/review.md` is `/claude:review`); running one
-- sends its text as a user message with `$ARGUMENTS`, `$@`, `$1`..`$9` and
-- `{{args}}` filled in. Skills and agents are listed in a startup summary.
-- Project folders are read before the home folder; the first command of a
-- name wins.
--
--   pi -e extensions/playground/cross-agent.lua

local defs = require("lib.agent-defs")

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

local function toml_string(text, key)
  local lead = "\n%s*" .. key .. "%s*=%s*"
  local value = text:match(lead .. '"""\n?(.-)"""')
    or text:match(lead .. "'''\n?(.-)'''")
    or text:match(lead .. "'([^'\n]*)'")
  if value then
    return value
  end
  value = text:match(lead .. '"([^\n]*)"')
  if value then
    value = value:gsub('\\"', '"'):gsub("\\n", "\n"):gsub("\\\\", "\\")
  end
  return value
end

--- A command file as `{description, template}`, or nil when it has no prompt.
local function read_command(text, file)
  if file.path:sub(-5) == ".toml" then
    text = "\n" .. text
    local prompt = toml_string(text, "prompt")
    if not prompt then
      return nil
    end
    return { description = toml_string(text, "description") or defs.summary(prompt, 60), template = prompt }
  end
  local fields, body = defs.parse(text)
  local description = type(fields.description) == "string" and fields.description or defs.summary(body, 60)
  if type(fields["argument-hint"]) == "string" then
    description = description .. " " .. fields["argument-hint"]
  end
  return { description = description, template = body }
end

local function plural(n, word)
  return n .. " " .. word .. (n == 1 and "" or "s")
end

return function(pi)
  local found = {} -- {label, kind, items} groups for the summary
  local registered = {}

  local function group(label, kind, items)
    if #items > 0 then
      found[#found + 1] = { label = label, kind = kind, items = items }
    end
  end

  local function register(tool, root, file)
    local text = pi.fs.read(file.path)
    local command = text and read_command(text, file)
    local name = tool.id .. ":" .. file.name
    if not command or registered[name] then
      return nil
    end
    registered[name] = true
    pi.registerCommand(name, {
      description = "[" .. root.label .. "] " .. command.description,
      handler = function(args)
        pi.sendUserMessage(expand(command.template, args))
      end,
    })
    return "/" .. name
  end

  local function named_files(folder, ext, depth)
    local names = {}
    for _, file in ipairs(defs.files(pi.fs, folder, ext, depth)) do
      local text = pi.fs.read(file.path) or ""
      local fields = defs.parse(text)
      names[#names + 1] = "@" .. (type(fields.name) == "string" and fields.name or file.name)
    end
    return names
  end

  local function skills(folder)
    local names = {}
    for _, entry in ipairs(pi.fs.list(folder) or {}) do
      if entry.isDir then
        local text = pi.fs.read(folder .. "/" .. entry.name .. "/SKILL.md")
        if text then
          local fields = defs.parse(text)
          names[#names + 1] = type(fields.name) == "string" and fields.name or entry.name
        end
      end
    end
    return names
  end

  for _, place in ipairs({ "project", "home" }) do
    for _, tool in ipairs(TOOLS) do
      local root = defs.roots({ tool.dir })[place == "project" and 1 or 2]
      if root then
        local commands = {}
        for _, sub in ipairs(tool.commands) do
          local folder = root.dir .. "/" .. sub
          local files = defs.files(pi.fs, folder, ".md", 3)
          if tool.id == "gemini" then
            for _, f in ipairs(defs.files(pi.fs, folder, ".toml", 3)) do
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
    local pi_root = defs.roots({ ".pi" })[place == "project" and 1 or 2]
    if pi_root then
      local folder = place == "project" and pi_root.dir .. "/agents" or pi_root.dir .. "/agent/agents"
      local label = place == "project" and ".pi/agents" or "~/.pi/agent/agents"
      group(label, "agent", named_files(folder, ".md", 0))
    end
  end

  pi.on("session_start", function(_, ctx)
    if #found == 0 then
      return
    end
    local lines = { "cross-agent found:" }
    for _, g in ipairs(found) do
      lines[#lines + 1] = "  " .. g.label .. " (" .. plural(#g.items, g.kind) .. "): " .. table.concat(g.items, ", ")
    end
    ctx.ui.notify(table.concat(lines, "\n"), "info")
  end)
end
