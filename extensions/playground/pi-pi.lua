-- Parallel research: the `query_experts` tool asks several expert sub-agents the
-- same question at once and returns all their answers together. Experts are the
-- `*.md` files of the first `pi-pi/` agent folder that has any (.pi/agents/pi-pi/
-- in the project, ..., then the nine bundled experts in agents/pi-pi/);
-- `pi-orchestrator.md` there is not an expert: its body, with {{EXPERT_COUNT}},
-- {{EXPERT_NAMES}} and {{EXPERT_CATALOG}} filled in, is added to the main agent's
-- system prompt. Experts run without sessions, so every question starts fresh.
-- Run: pi -e extensions/playground/pi-pi.lua
local function setup(pi)
  local agents = require("lib.agents")
  local tr = require("lib.i18n").load(pi)
  require("lib.defaults").apply(pi, "pi-pi")
  local runner = require("orchestration.runner")
  local view = require("orchestration.view")

  local dir = ".pi/agents/pi-pi" -- where the experts in use came from
  local experts, order = {}, {}
  local orchestrator
  local state = {} -- name -> {status, run}
  local ui_ctx

  local function draw()
    if not ui_ctx then return end
    local lines = { view.paint(ui_ctx, "accent", tr("pi-pi.title", { count = #order })) }
    for _, def in ipairs(order) do
      local s = state[def.name]
      local line = view.icon(ui_ctx, s.status) .. " " .. agents.label(def, tr) .. " " ..
        view.paint(ui_ctx, "dim", tr("team.status." .. s.status))
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
    local folder
    for _, f in ipairs(agents.folders(pi, "pi-pi")) do
      if #agents.md_files(pi, f.dir) > 0 then
        folder = f
        break
      end
    end
    dir = folder and folder.label or dir
    local by_name, list, errors = agents.discover(pi, { folders = { folder } })
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
    ctx.ui.setStatus("pi-pi", tr("pi-pi.status-line", { count = #order }))
    draw()
  end)

  pi.on("before_agent_start", function(event)
    if #order == 0 then return end
    local catalog, names = {}, {}
    for _, def in ipairs(order) do
      catalog[#catalog + 1] = "- `" .. def.name .. "`: " .. def.description
      names[#names + 1] = def.name
    end
    local fill = {
      EXPERT_COUNT = tostring(#order),
      EXPERT_NAMES = table.concat(names, ", "),
      EXPERT_CATALOG = table.concat(catalog, "\n"),
    }
    local intro = orchestrator and (orchestrator.prompt:gsub("{{([%u_]+)}}", function(key)
      return fill[key]
    end) .. "\n\n") or ""
    return {
      systemPrompt = (event.systemPrompt or "") .. "\n\n" .. intro ..
        "## Experts\nAsk them with `query_experts` (they answer in parallel):\n" ..
        fill.EXPERT_CATALOG,
    }
  end)

  pi.registerTool({
    name = "query_experts",
    label = "Query Experts",
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
            " (defined in " .. dir .. "/*.md)")
        end
        chosen[#chosen + 1] = experts[name]
      end
      if #chosen == 0 then chosen = order end
      if #chosen == 0 then error("no experts: add definitions to .pi/agents/pi-pi/") end
      -- Start everyone first, then wait: they all run at the same time.
      for _, def in ipairs(chosen) do
        local s = state[def.name]
        s.status = "running"
        s.run = runner.start(pi, {
          model = runner.model_of(ctx),
          tools = def.toolsCsv,
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

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = {
      -- Agent definitions of the project, pi and other agents.
      read = { ".", "$agent", "$extension", "~/.pi", "~/.claude", "~/.gemini", "~/.codex" },
    },
    exec = { "$pi" },
    env = { "HOME", "USERPROFILE", "PI_CODING_AGENT_DIR" },
  },
  setup = setup,
}
