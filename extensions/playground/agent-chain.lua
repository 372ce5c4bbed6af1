-- A pipeline: the `run_chain` tool runs the steps of a chain one after another,
-- each a specialist pi sub-agent (an agent definition file, see lib/agents.lua).
-- Chains come from `agent-chain.yaml` (.pi/agents/agent-chain.yaml, then the
-- bundled agents/agent-chain.yaml):
--
--   plan-build:
--     description: "Plan, then build"
--     steps:
--       - agent: planner
--         prompt: "Plan the implementation for: $INPUT"
--       - agent: builder
--         prompt: "Implement this plan:\n\n$INPUT\n\nThe request was: $ORIGINAL"
--
-- In a step's prompt `$INPUT` is the previous step's answer (the task for the
-- first step) and `$ORIGINAL` the task given to `run_chain`. `/chain` picks the
-- active chain, `/chain-list` lists them; a widget shows the steps as they run.
-- Run: pi -e extensions/playground/agent-chain.lua
local function setup(pi)
  local agents = require("lib.agents")
  local tr = require("lib.i18n").load(pi)
  require("lib.defaults").apply(pi, "agent-chain")
  local runner = require("orchestration.runner")
  local view = require("orchestration.view")

  local SESSIONS = ".pi/agent-sessions"
  local defs, chains, chain_names = {}, {}, {}
  local active
  local steps = {} -- {agent, status, run} of the current or last run
  local ui_ctx

  local function draw()
    if not ui_ctx then return end
    local cards = {}
    for _, s in ipairs(steps) do
      local card = view.icon(ui_ctx, s.status) .. " " .. (defs[s.agent] and agents.label(defs[s.agent], tr) or s.agent) .. " " ..
        view.paint(ui_ctx, "dim", tr("team.status." .. s.status))
      if s.run then card = card .. " " .. view.duration(runner.elapsed(s.run)) end
      cards[#cards + 1] = card
    end
    if not active then
      ui_ctx.ui.setWidget("agent-chain", { view.paint(ui_ctx, "warning", tr("chain.none")) })
      return
    end
    local lines = { view.paint(ui_ctx, "accent", tr("chain.title", { chain = tostring(active) })) .. "  " ..
      table.concat(cards, view.paint(ui_ctx, "dim", " ──▶ ")) }
    for _, s in ipairs(steps) do
      if s.status == "running" and s.run.lastLine ~= "" then
        lines[#lines + 1] = "  " .. view.paint(ui_ctx, "muted", view.clip(s.run.lastLine, 70))
      end
    end
    ui_ctx.ui.setWidget("agent-chain", lines)
  end

  local function reset_steps()
    steps = {}
    for _, step in ipairs((chains[active] or {}).steps or {}) do
      steps[#steps + 1] = { agent = step.agent, status = "pending" }
    end
    draw()
  end

  --- `template` with $INPUT and $ORIGINAL filled in (replacement text is literal).
  local function fill(template, input, original)
    return (template:gsub("%$(%u+)", function(name)
      if name == "INPUT" then return input end
      if name == "ORIGINAL" then return original end
    end))
  end

  local function check(name)
    for i, step in ipairs(chains[name].steps) do
      if not defs[step.agent] then
        return tr("chain.missing-agent", { chain = name, step = i, agent = tostring(step.agent) })
      end
    end
  end

  local function flow(name)
    local names = {}
    for _, s in ipairs(chains[name].steps) do
      names[#names + 1] = defs[s.agent] and agents.label(defs[s.agent], tr) or s.agent
    end
    return table.concat(names, " → ")
  end

  local function announce(ctx)
    if not active then return end
    ctx.ui.setStatus("agent-chain", tr("chain.status-line", { chain = active, count = #chains[active].steps }))
  end

  pi.on("session_start", function(_, ctx)
    ui_ctx = ctx
    local errors
    defs, _, errors = agents.discover(pi)
    for _, e in ipairs(errors) do ctx.ui.notify("agent-chain: " .. e, "warning") end
    local names, loaded, chain_errors = agents.chains(pi)
    for _, e in ipairs(chain_errors) do ctx.ui.notify("agent-chain: " .. e, "error") end
    chain_names, chains = names, loaded
    active = chains[pi.state.chain] and pi.state.chain or chain_names[1]
    for name in pairs(defs) do
      os.remove(ctx.cwd .. "/" .. SESSIONS .. "/chain-" .. name .. ".jsonl")
    end
    if not active then
      ctx.ui.notify(tr("chain.no-chains"), "warning")
    else
      announce(ctx)
      ctx.ui.notify(tr("chain.started", { chain = active, flow = flow(active) }), "info")
    end
    reset_steps()
  end)

  -- Each step's agent with its description and role, for the main agent's prompt.
  local function catalog()
    local out, seen = {}, {}
    for i, s in ipairs(chains[active].steps) do
      local def = defs[s.agent]
      out[#out + 1] = string.format("%d. %s: %s", i, s.agent, def and def.description or "?")
    end
    for _, s in ipairs(chains[active].steps) do
      local def = defs[s.agent]
      if def and not seen[s.agent] then
        seen[s.agent] = true
        out[#out + 1] = "\n### " .. agents.display_name(s.agent) .. "\n" .. def.prompt
      end
    end
    return table.concat(out, "\n") .. "\n\n"
  end

  pi.on("before_agent_start", function(event)
    if not active then return end
    local names = {}
    for _, s in ipairs(chains[active].steps or {}) do names[#names + 1] = tostring(s.agent) end
    return {
      systemPrompt = (event.systemPrompt or "") .. "\n\n## Pipeline\nFor substantial work call " ..
        "`run_chain` with the task; it runs the chain \"" .. active .. "\" (" ..
        table.concat(names, " → ") .. ") and returns the last step's answer.\n\n" .. catalog() ..
        "Handle simple questions yourself.",
    }
  end)

  pi.registerTool({
    name = "run_chain",
    label = "Chain",
    description = "Run the active chain of specialist agents on a task; each step gets the previous step's answer.",
    parameters = {
      type = "object",
      properties = {
        task = { type = "string", description = "The task for the first step" },
        chain = { type = "string", description = "A chain name (default: the active chain)" },
      },
      required = { "task" },
    },
    execute = function(_, params, signal, onUpdate, ctx)
      local name = params.chain or active
      if not name or not chains[name] then
        error("no chain \"" .. tostring(name) .. "\"; chains: " ..
          table.concat(chain_names, ", ") .. " (defined in .pi/agents/agent-chain.yaml)")
      end
      local problem = check(name)
      if problem then error(problem) end
      active = name
      reset_steps()
      local started = os.time()
      local input, original = params.task, params.task
      for i, step in ipairs(chains[name].steps) do
        local def = defs[step.agent]
        local slot = steps[i]
        slot.status = "running"
        slot.run = runner.start(pi, {
          model = runner.model_of(ctx),
          tools = def.toolsCsv,
          systemPrompt = def.prompt,
          session = ctx.cwd .. "/" .. SESSIONS .. "/chain-" .. def.name .. ".jsonl",
          signal = signal,
        }, fill(step.prompt or "$INPUT", input, original), function(run)
          slot.status = run.status
          draw()
          if run.status == "running" then
            onUpdate({ content = string.format("step %d/%d %s: %s", i, #steps, def.name, run.lastLine) })
          end
        end)
        draw()
        slot.run.process.wait()
        if slot.run.status ~= "done" then
          error(string.format("chain %s stopped at step %d (%s): %s", name, i, def.name,
            runner.answer(slot.run)))
        end
        input = slot.run.text
      end
      local summary = {}
      for _, s in ipairs(steps) do
        summary[#summary + 1] = { agent = s.agent, status = s.status, elapsed = runner.elapsed(s.run), output = s.run.text }
      end
      return {
        content = string.format("[chain:%s] done in %ds\n\n%s", name, os.time() - started, input),
        details = { chain = name, steps = summary },
      }
    end,
  })

  pi.registerCommand("chain", {
    description = tr("chain.cmd.chain"),
    handler = function(_, ctx)
      ui_ctx = ctx
      if #chain_names == 0 then
        ctx.ui.notify(tr("chain.no-chains"), "warning")
        return
      end
      local options = {}
      for _, name in ipairs(chain_names) do
        options[#options + 1] = name .. " — " .. chains[name].description .. " (" .. flow(name) .. ")"
      end
      local picked = ctx.ui.select(tr("chain.select"), options)
      for i, option in ipairs(options) do
        if option == picked then
          active = chain_names[i]
          pi.state.chain = active
          announce(ctx)
          reset_steps()
        end
      end
    end,
  })

  pi.registerCommand("chain-list", {
    description = tr("chain.cmd.list"),
    handler = function(_, ctx)
      local lines = {}
      for _, name in ipairs(chain_names) do
        lines[#lines + 1] = name .. (name == active and " ●" or "") .. " — " .. chains[name].description
        for i, step in ipairs(chains[name].steps) do
          lines[#lines + 1] = "  " .. i .. ". " .. (defs[step.agent] and agents.label(defs[step.agent], tr) or step.agent)
        end
      end
      ctx.ui.notify(#lines > 0 and table.concat(lines, "\n") or tr("chain.no-chains"), "info")
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
