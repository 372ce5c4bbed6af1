-- A dispatcher: the main agent keeps a single tool, `dispatch_agent`, and hands
-- every piece of work to a specialist of the active team. Specialists are
-- `.pi/agents/*.md` files; teams come from `.pi/agents/teams.lua`:
--
--   return { full = { "scout", "planner", "builder" }, info = { "scout" } }
--
-- Each specialist runs as a pi sub-agent with its own tools and system prompt and
-- keeps a session (`.pi/agent-sessions/<name>.jsonl`) for the length of this pi
-- session. A widget shows the team and what each member is doing; `/agents-team`
-- switches teams.
-- Run: pi -e extensions/playground/agent-team.lua
return function(pi)
  local agents = require("orchestration.agents")
  local runner = require("orchestration.runner")
  local view = require("orchestration.view")
  local ui = require("pi.ui")

  local SESSIONS = ".pi/agent-sessions"
  local defs, teams = {}, {}
  local team_name
  local members = {} -- ordered {def, status, run}
  local ui_ctx

  local function draw()
    if not ui_ctx then return end
    local lines = { view.paint(ui_ctx, "accent", "Team " .. (team_name or "-")) }
    for _, m in ipairs(members) do
      local line = string.format("%s %s %s", view.icon(ui_ctx, m.status),
        agents.display_name(m.def.name), view.paint(ui_ctx, "dim", m.status))
      if m.run then
        line = line .. string.format("  %s | Tools: %d  %s", view.duration(runner.elapsed(m.run)),
          m.run.tools, view.paint(ui_ctx, "muted", view.clip(m.run.lastLine, 50)))
      end
      lines[#lines + 1] = line
    end
    ui_ctx.ui.setWidget("agent-team", lines)
  end

  local function session_file(name)
    return ui_ctx.cwd .. "/" .. SESSIONS .. "/" .. name .. ".jsonl"
  end

  local function choose_team(name, ctx)
    members = {}
    team_name = name
    local names = teams[name]
    if not names then
      -- No teams file: everyone is on one team.
      names = {}
      for _, def in ipairs(defs.list) do names[#names + 1] = def.name end
      team_name = "all"
    end
    for _, n in ipairs(names) do
      local def = defs.byName[n]
      if def then
        members[#members + 1] = { def = def, status = "idle" }
        os.remove(ctx.cwd .. "/" .. SESSIONS .. "/" .. n .. ".jsonl")
      else
        ctx.ui.notify("agent-team: team \"" .. name .. "\" lists \"" .. n .. "\", but no .pi/agents/" .. n .. ".md defines it", "warning")
      end
    end
    pi.state.team = team_name
    draw()
  end

  local function load(ctx)
    ui_ctx = ctx
    local by_name, list, errors = agents.discover(pi)
    defs = { byName = by_name, list = list }
    for _, e in ipairs(errors) do ctx.ui.notify("agent-team: " .. e, "warning") end
    local loaded, err = agents.load_data(pi, ".pi/agents/teams.lua")
    if err then ctx.ui.notify("agent-team: " .. err, "error") end
    teams = loaded or {}
    local wanted = pi.state.team
    if not teams[wanted] then wanted = agents.sorted_keys(teams)[1] end
    choose_team(wanted, ctx)
    pi.setActiveTools({ "dispatch_agent" })
  end

  local function member(name)
    for _, m in ipairs(members) do
      if m.def.name == name then return m end
    end
  end

  pi.on("session_start", function(_, ctx) load(ctx) end)

  pi.on("before_agent_start", function(event)
    local catalog = {}
    for _, m in ipairs(members) do
      catalog[#catalog + 1] = string.format("### %s\nDispatch as: `%s`\n%s",
        agents.display_name(m.def.name), m.def.name, m.def.description)
    end
    return {
      systemPrompt = (event.systemPrompt or "") .. "\n\n## Dispatcher\n" ..
        "You lead a team of specialists and work only through them: call `dispatch_agent` " ..
        "with one of the agents below and a self-contained task, read the answer, dispatch " ..
        "again as needed, then report to the user.\n\n## Active team: " .. tostring(team_name) ..
        "\n\n" .. table.concat(catalog, "\n\n"),
    }
  end)

  pi.registerTool({
    name = "dispatch_agent",
    label = "Dispatch",
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
      m.status = "running"
      m.run = runner.start(pi, {
        model = runner.model_of(ctx),
        tools = m.def.tools,
        systemPrompt = m.def.prompt,
        session = session_file(m.def.name),
        signal = signal,
      }, params.task, function(run)
        m.status = run.status
        draw()
        if run.status == "running" then
          onUpdate({ content = m.def.name .. ": " .. run.lastLine })
        end
      end)
      draw()
      m.run.process.wait()
      local run = m.run
      local details = {
        agent = m.def.name, status = run.status, elapsed = runner.elapsed(run),
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
    description = "Pick the active team of specialists",
    handler = function(_, ctx)
      ui_ctx = ctx
      local names = agents.sorted_keys(teams)
      if #names == 0 then
        ctx.ui.notify("No teams: write .pi/agents/teams.lua returning { name = { \"agent\", ... } }", "warning")
        return
      end
      local picked = ctx.ui.select("Team", names)
      if picked then choose_team(picked, ctx) end
    end,
  })
end
