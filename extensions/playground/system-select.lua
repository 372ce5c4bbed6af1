-- system-select: `/system` picks an agent definition (a markdown file with
-- `name`, `description` and `tools` frontmatter) from the agent folders of
-- pi, Claude Code, Gemini CLI and Codex, in the project and the home folder.
-- The chosen agent's body is added to the system prompt of every turn and
-- its tools become the active tool set; the footer shows which agent is on.
-- `/system <name>` switches without the dialog, `/system default` goes back.
--
--   pi -e extensions/playground/system-select.lua

local defs = require("lib.agent-defs")

-- Folders scanned in order; the first definition of a name wins.
local PROJECT_DIRS = { ".pi/agents", ".claude/agents", ".gemini/agents", ".codex/agents" }
local HOME_DIRS = { ".pi/agent/agents", ".pi/agents", ".claude/agents", ".gemini/agents", ".codex/agents" }

-- Used when a definition names no tools.
local DEFAULT_TOOLS = { "read", "grep", "find", "ls" }

-- Tool names other tools use, lower-cased, mapped to pi's.
local TOOL_ALIASES = {
  glob = "find",
  multiedit = "edit",
  list = "ls",
  read_file = "read",
  write_file = "write",
  replace = "edit",
  run_shell_command = "bash",
  shell = "bash",
  search_file_content = "grep",
  list_directory = "ls",
}

local DEFAULT_CHOICE = "default (pi's own prompt and tools)"

local function discover(pi)
  local agents, seen = {}, {}
  local places = {}
  for _, dir in ipairs(PROJECT_DIRS) do
    places[#places + 1] = { dir = dir, label = dir }
  end
  local home = defs.home()
  if home ~= "" then
    for _, dir in ipairs(HOME_DIRS) do
      places[#places + 1] = { dir = home .. "/" .. dir, label = "~/" .. dir }
    end
  end
  for _, place in ipairs(places) do
    for _, file in ipairs(defs.files(pi.fs, place.dir, ".md")) do
      local text = pi.fs.read(file.path)
      if text then
        local fields, body = defs.parse(text)
        local name = type(fields.name) == "string" and fields.name or file.name
        if not seen[name] then
          seen[name] = true
          agents[#agents + 1] = {
            name = name,
            description = type(fields.description) == "string" and fields.description or "",
            tools = fields.tools and defs.list(fields.tools) or DEFAULT_TOOLS,
            prompt = body:gsub("^%s+", ""):gsub("%s+$", ""),
            source = place.label,
          }
        end
      end
    end
  end
  return agents
end

-- The agent's tools that pi knows, and the names it does not.
local function resolve_tools(pi, wanted)
  local known = {}
  for _, tool in ipairs(pi.getAllTools()) do
    known[tool.name] = true
  end
  local tools, unknown, added = {}, {}, {}
  for _, name in ipairs(wanted) do
    local lower = name:lower()
    local mapped = known[name] and name or TOOL_ALIASES[lower] or lower
    if known[mapped] then
      if not added[mapped] then
        added[mapped] = true
        tools[#tools + 1] = mapped
      end
    else
      unknown[#unknown + 1] = name
    end
  end
  return tools, unknown
end

return function(pi)
  local active -- the chosen agent, nil for pi's default
  local saved_tools = pi.state.systemSelectSaved -- active tools before the first switch
  local names = {} -- agent names from the last scan, for completion

  local function activate(agent, ctx)
    if not saved_tools then
      saved_tools = pi.getActiveTools()
      pi.state.systemSelectSaved = saved_tools
    end
    local tools, unknown = resolve_tools(pi, agent.tools)
    pi.setActiveTools(tools)
    active = agent
    pi.state.systemSelect = agent.name
    ctx.ui.setStatus("system-select", "agent: " .. agent.name)
    local note = "Agent " .. agent.name .. " (" .. agent.source .. ") is active; tools: "
      .. (#tools > 0 and table.concat(tools, ", ") or "none")
    if #unknown > 0 then
      note = note .. "\nUnknown tools left out: " .. table.concat(unknown, ", ")
      ctx.ui.notify(note, "warning")
    else
      ctx.ui.notify(note, "info")
    end
  end

  local function deactivate(ctx)
    if saved_tools then
      pi.setActiveTools(saved_tools)
    end
    active = nil
    saved_tools = nil
    pi.state.systemSelect = nil
    pi.state.systemSelectSaved = nil
    ctx.ui.setStatus("system-select", nil)
    ctx.ui.notify("Back to pi's default system prompt and tools", "info")
  end

  pi.registerCommand("system", {
    description = "Switch the system prompt and tools to an agent definition",
    getArgumentCompletions = function(prefix)
      local out = {}
      for _, name in ipairs(names) do
        if name:sub(1, #prefix) == prefix then
          out[#out + 1] = name
        end
      end
      return out
    end,
    handler = function(args, ctx)
      local agents = discover(pi)
      names = {}
      for _, agent in ipairs(agents) do
        names[#names + 1] = agent.name
      end
      local wanted = args:gsub("^%s+", ""):gsub("%s+$", "")
      if wanted == "default" then
        deactivate(ctx)
        return
      end
      if wanted ~= "" then
        for _, agent in ipairs(agents) do
          if agent.name == wanted then
            activate(agent, ctx)
            return
          end
        end
        ctx.ui.notify("No agent named \"" .. wanted .. "\". Known agents: "
          .. (#names > 0 and table.concat(names, ", ") or "none") .. " (or \"default\")", "error")
        return
      end
      if #agents == 0 then
        ctx.ui.notify("No agent definitions found. Add markdown files with name/description/tools "
          .. "frontmatter to .pi/agents/ (or .claude/agents/, .gemini/agents/, .codex/agents/)", "warning")
        return
      end
      local options = { DEFAULT_CHOICE }
      for _, agent in ipairs(agents) do
        local label = agent.name
        if agent.description ~= "" then
          label = label .. " — " .. agent.description
        end
        options[#options + 1] = label .. " [" .. agent.source .. "]"
      end
      local choice = ctx.ui.select("System prompt", options)
      if not choice then
        return
      end
      if choice == DEFAULT_CHOICE then
        deactivate(ctx)
        return
      end
      for i, option in ipairs(options) do
        if option == choice then
          activate(agents[i - 1], ctx)
          return
        end
      end
    end,
  })

  pi.on("session_start", function(_, ctx)
    local agents = discover(pi)
    names = {}
    for _, agent in ipairs(agents) do
      names[#names + 1] = agent.name
      if agent.name == pi.state.systemSelect and not active then
        active = agent
        ctx.ui.setStatus("system-select", "agent: " .. agent.name)
      end
    end
  end)

  pi.on("before_agent_start", function(event)
    if not active or active.prompt == "" then
      return nil
    end
    local base = event.systemPrompt or ""
    return { systemPrompt = base .. "\n\n# Agent: " .. active.name .. "\n\n" .. active.prompt }
  end)
end
