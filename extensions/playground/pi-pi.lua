-- Parallel research: the `query_experts` tool asks several expert sub-agents the
-- same question at once and returns all their answers together. Experts are the
-- `.pi/agents/pi-pi/*.md` files; `pi-orchestrator.md` there, if present, is not
-- an expert: its body is added to the main agent's system prompt. Experts run
-- without sessions, so every question starts fresh.
-- Run: pi -e extensions/playground/pi-pi.lua
return function(pi)
  local agents = require("orchestration.agents")
  local runner = require("orchestration.runner")
  local view = require("orchestration.view")

  local DIR = ".pi/agents/pi-pi"
  local experts, order = {}, {}
  local orchestrator
  local state = {} -- name -> {status, run}
  local ui_ctx

  local function draw()
    if not ui_ctx then return end
    local lines = { view.paint(ui_ctx, "accent", "Experts") }
    for _, def in ipairs(order) do
      local s = state[def.name]
      local line = view.icon(ui_ctx, s.status) .. " " .. agents.display_name(def.name)
      if s.run then
        line = line .. " " .. view.duration(runner.elapsed(s.run)) .. "  " ..
          view.paint(ui_ctx, "muted", view.clip(s.run.lastLine, 50))
      end
      lines[#lines + 1] = line
    end
    ui_ctx.ui.setWidget("pi-pi", lines)
  end

  pi.on("session_start", function(_, ctx)
    ui_ctx = ctx
    local by_name, list, errors = agents.discover(pi, { DIR })
    for _, e in ipairs(errors) do ctx.ui.notify("pi-pi: " .. e, "warning") end
    orchestrator = by_name["pi-orchestrator"]
    experts, order, state = {}, {}, {}
    for _, def in ipairs(list) do
      if def ~= orchestrator then
        experts[def.name] = def
        order[#order + 1] = def
        state[def.name] = { status = "idle" }
      end
    end
    draw()
  end)

  pi.on("before_agent_start", function(event)
    if #order == 0 then return end
    local catalog = {}
    for _, def in ipairs(order) do
      catalog[#catalog + 1] = "- `" .. def.name .. "`: " .. def.description
    end
    return {
      systemPrompt = (event.systemPrompt or "") .. "\n\n" ..
        (orchestrator and (orchestrator.prompt .. "\n\n") or "") ..
        "## Experts\nAsk them with `query_experts` (they answer in parallel):\n" ..
        table.concat(catalog, "\n"),
    }
  end)

  pi.registerTool({
    name = "query_experts",
    label = "Experts",
    description = "Ask several expert agents the same question in parallel; returns every answer.",
    parameters = {
      type = "object",
      properties = {
        question = { type = "string", description = "The question, complete and self-contained" },
        experts = {
          type = "array", items = { type = "string" },
          description = "Expert names (default: all experts)",
        },
      },
      required = { "question" },
    },
    execute = function(_, params, signal, onUpdate, ctx)
      local chosen = {}
      for _, name in ipairs(params.experts or {}) do
        if not experts[name] then
          local names = {}
          for _, def in ipairs(order) do names[#names + 1] = def.name end
          error("no expert \"" .. name .. "\"; experts: " .. table.concat(names, ", ") ..
            " (defined in " .. DIR .. "/*.md)")
        end
        chosen[#chosen + 1] = experts[name]
      end
      if #chosen == 0 then chosen = order end
      if #chosen == 0 then error("no experts: add definitions to " .. DIR .. "/") end
      -- Start everyone first, then wait: they all run at the same time.
      for _, def in ipairs(chosen) do
        local s = state[def.name]
        s.status = "running"
        s.run = runner.start(pi, {
          model = runner.model_of(ctx),
          tools = def.tools,
          systemPrompt = def.prompt,
          signal = signal,
        }, params.question, function(run)
          s.status = run.status
          draw()
        end)
      end
      draw()
      onUpdate({ content = "asked " .. #chosen .. " experts" })
      local parts, details = {}, {}
      for _, def in ipairs(chosen) do
        local run = state[def.name].run
        run.process.wait()
        local mark = run.status == "done" and "✓" or "✗"
        parts[#parts + 1] = string.format("## [%s] %s (%s)\n\n%s", mark,
          agents.display_name(def.name), view.duration(runner.elapsed(run)), runner.answer(run))
        details[#details + 1] = { expert = def.name, status = run.status, elapsed = runner.elapsed(run) }
      end
      return { content = table.concat(parts, "\n\n"), details = { experts = details } }
    end,
  })
end
