-- A pipeline: the `run_chain` tool runs the steps of a chain one after another,
-- each a specialist pi sub-agent (`.pi/agents/<agent>.md`). Chains come from
-- `.pi/agents/chains.lua`:
--
--   return {
--     ["plan-build"] = {
--       description = "Plan, then build",
--       steps = {
--         { agent = "planner", prompt = "Plan the implementation for: $INPUT" },
--         { agent = "builder", prompt = "Implement this plan:\n\n$INPUT\n\nThe request was: $ORIGINAL" },
--       },
--     },
--   }
--
-- In a step's prompt `$INPUT` is the previous step's answer (the task for the
-- first step) and `$ORIGINAL` the task given to `run_chain`. `/chain` picks the
-- active chain; a widget shows the steps as they run.
-- Run: pi -e extensions/playground/agent-chain.lua
return function(pi)
  local agents = require("orchestration.agents")
  local runner = require("orchestration.runner")
  local view = require("orchestration.view")

  local SESSIONS = ".pi/agent-sessions"
  local defs, chains = {}, {}
  local active
  local steps = {} -- {agent, status, run} of the current or last run
  local ui_ctx

  local function draw()
    if not ui_ctx then return end
    local cards = {}
    for _, s in ipairs(steps) do
      local card = view.icon(ui_ctx, s.status) .. " " .. agents.display_name(s.agent)
      if s.run then card = card .. " " .. view.duration(runner.elapsed(s.run)) end
      cards[#cards + 1] = card
    end
    local lines = { view.paint(ui_ctx, "accent", "Chain " .. tostring(active)) .. "  " ..
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
    local chain = chains[name]
    if type(chain) ~= "table" or type(chain.steps) ~= "table" or #chain.steps == 0 then
      return "chain \"" .. name .. "\" needs a non-empty `steps` list"
    end
    for i, step in ipairs(chain.steps) do
      if type(step.agent) ~= "string" or not defs[step.agent] then
        return string.format("chain \"%s\" step %d names agent \"%s\", which no .pi/agents/*.md defines",
          name, i, tostring(step.agent))
      end
    end
  end

  pi.on("session_start", function(_, ctx)
    ui_ctx = ctx
    local errors
    defs, _, errors = agents.discover(pi)
    for _, e in ipairs(errors) do ctx.ui.notify("agent-chain: " .. e, "warning") end
    local loaded, err = agents.load_data(pi, ".pi/agents/chains.lua")
    if err then ctx.ui.notify("agent-chain: " .. err, "error") end
    chains = loaded or {}
    active = chains[pi.state.chain] and pi.state.chain or agents.sorted_keys(chains)[1]
    for name in pairs(defs) do
      os.remove(ctx.cwd .. "/" .. SESSIONS .. "/chain-" .. name .. ".jsonl")
    end
    reset_steps()
  end)

  pi.on("before_agent_start", function(event)
    if not active then return end
    local names = {}
    for _, s in ipairs(chains[active].steps or {}) do names[#names + 1] = tostring(s.agent) end
    return {
      systemPrompt = (event.systemPrompt or "") .. "\n\n## Pipeline\nFor substantial work call " ..
        "`run_chain` with the task; it runs the chain \"" .. active .. "\" (" ..
        table.concat(names, " → ") .. ") and returns the last step's answer. " ..
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
          table.concat(agents.sorted_keys(chains), ", ") .. " (defined in .pi/agents/chains.lua)")
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
          tools = def.tools,
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
    description = "Pick the active chain",
    handler = function(_, ctx)
      ui_ctx = ctx
      local names = agents.sorted_keys(chains)
      if #names == 0 then
        ctx.ui.notify("No chains: write .pi/agents/chains.lua (see docs/playground.md)", "warning")
        return
      end
      local picked = ctx.ui.select("Chain", names)
      if picked then
        active = picked
        pi.state.chain = picked
        reset_steps()
      end
    end,
  })
end
