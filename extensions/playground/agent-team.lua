-- A dispatcher: the main agent keeps a single tool, `dispatch_agent`, and hands
-- every piece of work to a specialist of the active team. Specialists are agent
-- definition files (see lib/agents.lua for the folders); teams come from
-- `teams.yaml` (.pi/agents/teams.yaml, then the bundled agents/teams.yaml):
--
--   full:
--     - scout
--     - planner
--     - builder
--
-- Each specialist runs as a pi sub-agent with its own tools and system prompt and
-- keeps a session (`.pi/agent-sessions/<name>.jsonl`) for the length of this pi
-- session. A grid of cards shows each member's state, time, context use and latest
-- line; `/agents-team` switches teams, `/agents-list` lists them, `/agents-grid <n>`
-- sets the number of columns.
-- Run: pi -e extensions/playground/agent-team.lua
local function setup(pi)
  local agents = require("lib.agents")
  local runner = require("orchestration.runner")
  local view = require("orchestration.view")
  local ui = require("pi.ui")
  local tr = require("lib.i18n").load(pi)
  require("lib.defaults").apply(pi, "agent-team")

  local SESSIONS = ".pi/agent-sessions"
  local defs, experts = {}, {}
  local team_names, teams = {}, {}
  local team_name
  local members = {} -- ordered {def, status, run, task}
  local columns -- nil: chosen from the team size
  local context_window = 0
  local ui_ctx

  local function default_columns(n)
    if n <= 3 then return math.max(n, 1) end
    if n == 4 then return 2 end
    return 3
  end

  -- "[##---] 40%" for `percent` (0..100).
  local function bar(theme, percent)
    local filled = math.floor(percent / 20 + 0.5)
    return theme.fg("warning", "[") .. theme.fg("success", string.rep("#", filled)) ..
      theme.fg("dim", string.rep("-", 5 - filled)) .. theme.fg("warning", "]") ..
      theme.fg("accent", " " .. percent .. "%")
  end

  -- One member as 6 lines of exactly `w` columns.
  local function card(theme, m, w)
    local inner = w - 4
    local function row(text)
      return theme.fg("dim", "│ ") .. ui.padToWidth(ui.truncateToWidth(text, inner), inner) .. theme.fg("dim", " │")
    end
    local status = view.ICONS[m.status] .. " " .. (m.label or m.status)
    if m.run then status = status .. " " .. view.duration(runner.elapsed(m.run)) end
    local percent = 0
    if m.run and m.run.inputTokens and context_window > 0 then
      percent = math.min(100, math.floor(m.run.inputTokens * 100 / context_window + 0.5))
    end
    local work = (m.run and m.run.lastLine ~= "" and m.run.lastLine) or m.task or m.description or ""
    return {
      theme.fg("dim", "┌" .. string.rep("─", w - 2) .. "┐"),
      row(theme.fg("accent", theme.bold(m.name or m.def.name))),
      row(theme.fg(view.COLORS[m.status] or "dim", status)),
      row(bar(theme, percent)),
      row(theme.fg("muted", view.clip(work, inner))),
      theme.fg("dim", "└" .. string.rep("─", w - 2) .. "┘"),
    }
  end

  -- Texts are translated when the state changes (draw), never while rendering.
  local heading = ""
  local function grid(theme, width)
    if #members == 0 then
      return { theme.fg("warning", heading) }
    end
    local cols = math.min(columns or default_columns(#members), #members)
    local gap = 1
    local w = math.max(12, (width - gap * (cols - 1)) // cols)
    local lines = { theme.fg("accent", heading) }
    for first = 1, #members, cols do
      local rows = {}
      for c = 0, cols - 1 do
        local m = members[first + c]
        local block = m and card(theme, m, w) or { "", "", "", "", "", "" }
        for i = 1, 6 do
          rows[i] = (rows[i] and (rows[i] .. string.rep(" ", gap)) or "") .. ui.padToWidth(block[i], w)
        end
      end
      for i = 1, 6 do lines[#lines + 1] = ui.truncateToWidth(rows[i], width) end
    end
    return lines
  end

  local function draw()
    if not ui_ctx or not ui_ctx.hasUI then return end
    for _, m in ipairs(members) do
      m.label = tr("team.status." .. m.status)
      m.name = agents.label(m.def, tr)
      m.description = agents.describe(m.def, tr)
    end
    heading = #members == 0 and tr("team.empty", { team = tostring(team_name) })
      or tr("team.title", { team = tostring(team_name), count = #members })
    ui_ctx.ui.setWidget("agent-team", function(tui, theme)
      -- The grid is laid out when the state changes (here), not in every render.
      local cached_width = tui and tui.width or 80
      local cached = grid(theme, cached_width)
      return {
        render = function(width)
          if width ~= cached_width then
            cached_width, cached = width, grid(theme, width)
          end
          return cached
        end,
      }
    end)
  end

  local function lookup(name)
    return defs.byName[name] or experts[name]
  end

  local function choose_team(name, ctx)
    members = {}
    team_name = name
    local names = teams[name]
    if not names then
      -- No teams at all: everyone is on one team.
      names = {}
      for _, def in ipairs(defs.list) do names[#names + 1] = def.name end
      team_name = "all"
    end
    for _, n in ipairs(names) do
      local def = lookup(n)
      if def then
        members[#members + 1] = { def = def, status = "idle" }
        os.remove(ctx.cwd .. "/" .. SESSIONS .. "/" .. n .. ".jsonl")
      else
        ctx.ui.notify(tr("team.missing-agent", { team = name, agent = n }), "warning")
      end
    end
    pi.state.team = team_name
    ctx.ui.setStatus("agent-team", tr("team.status-line", { team = team_name, count = #members }))
    draw()
  end

  local function load(ctx)
    ui_ctx = ctx
    context_window = (type(ctx.model) == "table" and tonumber(ctx.model.contextWindow)) or 0
    local by_name, list, errors = agents.discover(pi)
    defs = { byName = by_name, list = list }
    experts = agents.discover(pi, { sub = "pi-pi" })
    for _, e in ipairs(errors) do ctx.ui.notify("agent-team: " .. e, "warning") end
    local names, loaded, team_errors = agents.teams(pi)
    for _, e in ipairs(team_errors) do ctx.ui.notify("agent-team: " .. e, "error") end
    team_names, teams = names, loaded
    local wanted = pi.state.team
    if not teams[wanted] then wanted = team_names[1] end
    choose_team(wanted, ctx)
    pi.setActiveTools({ "dispatch_agent" })
  end

  local function member(name)
    for _, m in ipairs(members) do
      if m.def.name == name then return m end
    end
  end

  pi.on("session_start", function(_, ctx)
    load(ctx)
    local names = {}
    for _, m in ipairs(members) do names[#names + 1] = agents.label(m.def, tr) end
    ctx.ui.notify(tr("team.started", { team = tostring(team_name), members = table.concat(names, ", ") }), "info")
  end)

  pi.on("before_agent_start", function(event)
    local catalog = {}
    for _, m in ipairs(members) do
      catalog[#catalog + 1] = string.format("### %s\nDispatch as: `%s`\n%s\nTools: %s",
        agents.display_name(m.def.name), m.def.name, m.def.description, m.def.toolsCsv)
    end
    return {
      systemPrompt = (event.systemPrompt or "") .. "\n\n## Dispatcher\n" ..
        "You lead a team of specialists and work only through them: you cannot read or change code " ..
        "yourself. Call `dispatch_agent` with one of the agents below and a self-contained task with " ..
        "one objective; read the answer, dispatch again as needed (scout first, then build), then " ..
        "report to the user.\n\n## Active team: " .. tostring(team_name) ..
        "\n\n" .. table.concat(catalog, "\n\n"),
    }
  end)

  pi.registerTool({
    name = "dispatch_agent",
    label = "Dispatch Agent",
    description = "Give a task to a specialist of the active team and get its answer.",
    parameters = {
      type = "object",
      properties = {
        agent = { type = "string", description = "Agent name, as listed under the active team" },
        task = { type = "string", description = "The complete task for the agent" },
      },
      required = { "agent", "task" },
    },
    execute = function(_, params, signal, onUpdate, ctx)
      local m = member(params.agent)
      if not m then
        local names = {}
        for _, x in ipairs(members) do names[#names + 1] = x.def.name end
        error(string.format("no agent \"%s\" in team %s; use one of: %s", params.agent,
          tostring(team_name), table.concat(names, ", ")))
      end
      if m.status == "running" then
        error(string.format("agent %s is still working on its previous task", m.def.name))
      end
      m.status = "running"
      m.task = params.task
      onUpdate({ content = "Dispatching to " .. m.def.name .. "..." })
      m.run = runner.start(pi, {
        model = runner.model_of(ctx),
        tools = m.def.toolsCsv,
        systemPrompt = m.def.prompt,
        session = ctx.cwd .. "/" .. SESSIONS .. "/" .. m.def.name .. ".jsonl",
        signal = signal,
      }, params.task, function(run)
        m.status = run.status == "killed" and "error" or run.status
        draw()
        if run.status == "running" then
          onUpdate({ content = m.def.name .. ": " .. run.lastLine })
        end
      end)
      draw()
      m.run.process.wait()
      local run = m.run
      if ctx.hasUI then
        ctx.ui.notify(tr("team.finished", {
          agent = agents.label(m.def, tr), status = tr("team.status." .. m.status),
          seconds = runner.elapsed(run),
        }), run.status == "done" and "info" or "warning")
      end
      local details = {
        agent = m.def.name, task = params.task, status = run.status, elapsed = runner.elapsed(run),
        tools = run.tools, fullOutput = run.text,
      }
      if run.status ~= "done" then
        error(string.format("agent %s %s: %s", m.def.name, run.status, tostring(run.error)))
      end
      return { content = run.text, details = details }
    end,
    renderCall = function(args, theme)
      return ui.Text(theme.fg("toolTitle", theme.bold("dispatch_agent ")) ..
        theme.fg("accent", tostring(args.agent)) .. theme.fg("dim", " — ") ..
        theme.fg("muted", view.clip(args.task, 60)), 0, 0)
    end,
  })

  pi.registerCommand("agents-team", {
    description = tr("team.cmd.team"),
    handler = function(_, ctx)
      ui_ctx = ctx
      if #team_names == 0 then
        ctx.ui.notify(tr("team.no-teams"), "warning")
        return
      end
      local options = {}
      for _, name in ipairs(team_names) do
        local names = {}
        for _, n in ipairs(teams[name]) do
          local def = lookup(n)
          names[#names + 1] = def and agents.label(def, tr) or n
        end
        options[#options + 1] = name .. " — " .. table.concat(names, ", ")
      end
      local picked = ctx.ui.select(tr("team.select"), options)
      if picked then
        for i, option in ipairs(options) do
          if option == picked then choose_team(team_names[i], ctx) end
        end
      end
    end,
  })

  pi.registerCommand("agents-list", {
    description = tr("team.cmd.list"),
    handler = function(_, ctx)
      local lines = {}
      for _, m in ipairs(members) do
        lines[#lines + 1] = tr("team.list-line", {
          agent = agents.label(m.def, tr), status = tr("team.status." .. m.status),
          description = agents.describe(m.def, tr),
        })
      end
      ctx.ui.notify(#lines > 0 and table.concat(lines, "\n") or tr("team.empty", { team = tostring(team_name) }), "info")
    end,
  })

  pi.registerCommand("agents-grid", {
    description = tr("team.cmd.grid"),
    getArgumentCompletions = function(prefix)
      local out = {}
      for n = 1, 6 do
        if tostring(n):sub(1, #prefix) == prefix then out[#out + 1] = tostring(n) end
      end
      return out
    end,
    handler = function(args, ctx)
      local n = tonumber(args)
      if not n or n < 1 or n > 6 then
        ctx.ui.notify(tr("team.grid-usage"), "error")
        return
      end
      columns = math.floor(n)
      draw()
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = {
      -- Agent, team and chain definitions of the project, pi and other agents.
      read = { ".", "$agent", "$extension", "~/.pi", "~/.claude", "~/.gemini", "~/.codex" },
      write = { ".pi" },
    },
    exec = { "$pi" },
    env = { "HOME", "USERPROFILE", "PI_CODING_AGENT_DIR" },
  },
  setup = setup,
}
