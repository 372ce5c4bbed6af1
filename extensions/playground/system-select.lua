-- system-select: `/system` picks an agent definition (a markdown file with
-- `name`, `description` and `tools` frontmatter) from the agent folders of
-- pi, Claude Code, Gemini CLI and Codex, in the project and the home folder,
-- and the agents bundled with the playground (see lib/agents.lua).
-- The chosen agent's body is added to the system prompt of every turn and
-- its tools become the active tool set; the footer shows which agent is on.
-- `/system <name>` switches without the dialog, `/system default` goes back.
--
--   pi -e extensions/playground/system-select.lua

local agent_lib = require("lib.agents")

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

local function discover(pi)
  local _, list = agent_lib.discover(pi)
  return list
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

---@param pi pi.API
local function setup(pi)
  local tr = require("lib.i18n").load(pi)
  require("lib.defaults").apply(pi, "system-select")
  local DEFAULT_CHOICE = tr("system.default-choice")
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
    ctx.ui.setStatus("system-select", tr("system.status", { agent = agent.name }))
    local note = tr("system.active", {
      agent = agent.name, source = agent.source,
      tools = #tools > 0 and table.concat(tools, ", ") or tr("system.no-tools"),
    })
    if #unknown > 0 then
      note = note .. "\n" .. tr("system.unknown-tools", { tools = table.concat(unknown, ", ") })
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
    ctx.ui.notify(tr("system.back"), "info")
  end

  pi.registerCommand("system", {
    description = tr("system.cmd"),
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
        ctx.ui.notify(tr("system.unknown-agent", { agent = wanted, known = table.concat(names, ", ") }), "error")
        return
      end
      if #agents == 0 then
        ctx.ui.notify(tr("system.none"), "warning")
        return
      end
      local options = { DEFAULT_CHOICE }
      for _, agent in ipairs(agents) do
        local label = agent.name
        local description = agent_lib.describe(agent, tr)
        if description ~= "" then
          label = label .. " — " .. description
        end
        options[#options + 1] = label .. " [" .. agent.source .. "]"
      end
      local choice = ctx.ui.select(tr("system.select"), options)
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
        ctx.ui.setStatus("system-select", tr("system.status", { agent = agent.name }))
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
