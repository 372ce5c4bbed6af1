-- A subagent tool: hands work to specialised agents, each a separate pi
-- process with its own context window.
--
--   single:   { agent = "scout", task = "..." }
--   parallel: { tasks = { {agent, task}, ... } }   (up to 8, 4 at a time)
--   chain:    { chain = { {agent, task}, ... } }   ({previous} = last output)
--
-- Agents are markdown files (see agents/ here; copy them to
-- ~/.pi/agent/agents). Project agents from .pi/agents need agentScope
-- "project" or "both" and, with a UI, your confirmation.
--
--   pi -e extensions/examples/subagent
local discovery = require("agents")

local MAX_PARALLEL, MAX_RUNNING = 8, 4

local function final_output(messages)
  for i = #messages, 1, -1 do
    local m = messages[i]
    if m.role == "assistant" and type(m.content) == "table" then
      for _, block in ipairs(m.content) do
        if block.type == "text" then return block.text end
      end
    end
  end
  return ""
end

local function tokens(n)
  if n < 1000 then return tostring(n) end
  if n < 10000 then return string.format("%.1fk", n / 1000) end
  if n < 1000000 then return string.format("%dk", math.floor(n / 1000 + 0.5)) end
  return string.format("%.1fM", n / 1000000)
end

local function usage_line(u, model)
  local parts = {}
  if u.turns > 0 then parts[#parts + 1] = u.turns .. " turn" .. (u.turns > 1 and "s" or "") end
  if u.input > 0 then parts[#parts + 1] = "↑" .. tokens(u.input) end
  if u.output > 0 then parts[#parts + 1] = "↓" .. tokens(u.output) end
  if u.cost > 0 then parts[#parts + 1] = string.format("$%.4f", u.cost) end
  if model then parts[#parts + 1] = model end
  return table.concat(parts, " ")
end

local function failed(r)
  return r.exitCode ~= 0 or r.stopReason == "error" or r.stopReason == "aborted"
end

local function setup(pi)
  local ui = require("pi.ui")

  -- Start one agent; returns the live result and its process (nil when the
  -- agent is unknown). `changed` is called whenever a message arrives.
  local function start(cwd, agents, name, task, step, signal, changed)
    local agent
    for _, a in ipairs(agents) do if a.name == name then agent = a end end
    local result = {
      agent = name, agentSource = agent and agent.source or "unknown", task = task, exitCode = -1,
      messages = {}, stderr = "", step = step, model = agent and agent.model,
      usage = { input = 0, output = 0, cost = 0, turns = 0 },
    }
    if not agent then
      local names = {}
      for i, a in ipairs(agents) do names[i] = '"' .. a.name .. '"' end
      result.exitCode = 1
      result.stderr = string.format('Unknown agent: "%s". Available agents: %s.', name,
        #names > 0 and table.concat(names, ", ") or "none")
      return result
    end

    local args = { "--mode", "json", "-p", "--no-session" }
    if agent.model then args[#args + 1] = "--model"; args[#args + 1] = agent.model end
    if agent.tools then args[#args + 1] = "--tools"; args[#args + 1] = table.concat(agent.tools, ",") end
    if agent.systemPrompt:find("%S") then
      args[#args + 1] = "--append-system-prompt"
      args[#args + 1] = agent.systemPrompt
    end
    args[#args + 1] = "Task: " .. task

    local proc = pi.spawn(pi.execPath, args, {
      cwd = cwd,
      signal = signal,
      onStdout = function(line)
        local ok, event = pcall(pi.json.decode, line)
        if not ok or type(event) ~= "table" or event.type ~= "message_end" or type(event.message) ~= "table" then return end
        local m = event.message
        result.messages[#result.messages + 1] = m
        if m.role == "assistant" then
          local u = type(m.usage) == "table" and m.usage or {}
          result.usage.turns = result.usage.turns + 1
          result.usage.input = result.usage.input + (tonumber(u.input) or 0)
          result.usage.output = result.usage.output + (tonumber(u.output) or 0)
          result.usage.cost = result.usage.cost + (type(u.cost) == "table" and tonumber(u.cost.total) or 0)
          result.model = result.model or m.model
          if type(m.stopReason) == "string" then result.stopReason = m.stopReason end
          if type(m.errorMessage) == "string" then result.errorMessage = m.errorMessage end
        end
        changed()
      end,
      onStderr = function(line) result.stderr = result.stderr .. line .. "\n" end,
    })
    return result, proc
  end

  local function finish(result, proc, signal)
    if proc then
      local run = proc.wait()
      result.exitCode = run.code or 1
      if run.killed and signal and signal.aborted then error("Subagent was aborted", 0) end
    end
    return result
  end

  local function error_text(r)
    return r.errorMessage or (r.stderr:find("%S") and r.stderr:match("^%s*(.-)%s*$"))
      or (final_output(r.messages) ~= "" and final_output(r.messages)) or "(no output)"
  end

  pi.registerTool({
    name = "subagent",
    label = "Subagent",
    description = "Delegate tasks to specialized subagents with isolated context. "
      .. "Modes: single (agent + task), parallel (tasks array), chain (sequential with {previous} placeholder). "
      .. 'Default agent scope is "user" (from ~/.pi/agent/agents). '
      .. 'To enable project-local agents in .pi/agents, set agentScope: "both" (or "project").',
    parameters = {
      type = "object",
      properties = {
        agent = { type = "string", description = "Name of the agent to invoke (for single mode)" },
        task = { type = "string", description = "Task to delegate (for single mode)" },
        tasks = {
          type = "array", description = "Array of {agent, task} for parallel execution",
          items = { type = "object", required = { "agent", "task" }, properties = {
            agent = { type = "string", description = "Name of the agent to invoke" },
            task = { type = "string", description = "Task to delegate to the agent" },
            cwd = { type = "string", description = "Working directory for the agent process" },
          } },
        },
        chain = {
          type = "array", description = "Array of {agent, task} for sequential execution",
          items = { type = "object", required = { "agent", "task" }, properties = {
            agent = { type = "string", description = "Name of the agent to invoke" },
            task = { type = "string", description = "Task with optional {previous} placeholder for prior output" },
            cwd = { type = "string", description = "Working directory for the agent process" },
          } },
        },
        agentScope = { type = "string", enum = { "user", "project", "both" },
          description = 'Which agent directories to use. Default: "user". Use "both" to include project-local agents.' },
        confirmProjectAgents = { type = "boolean", description = "Prompt before running project-local agents. Default: true." },
        cwd = { type = "string", description = "Working directory for the agent process (single mode)" },
      },
    },
    execute = function(_, params, signal, onUpdate, ctx)
      local scope = params.agentScope or "user"
      local agents, project_dir = discovery.discover(pi, ctx.cwd, scope)
      local chain, tasks = params.chain or {}, params.tasks or {}
      local single = params.agent and params.task
      local mode = #chain > 0 and "chain" or #tasks > 0 and "parallel" or "single"
      local function details(results) return { mode = mode, agentScope = scope, projectAgentsDir = project_dir, results = results } end
      local function reply(text, results, is_error)
        if is_error then error(text, 0) end
        return { content = { { type = "text", text = text } }, details = details(results or {}) }
      end

      local modes = (#chain > 0 and 1 or 0) + (#tasks > 0 and 1 or 0) + (single and 1 or 0)
      if modes ~= 1 then
        local names = {}
        for i, a in ipairs(agents) do names[i] = a.name .. " (" .. a.source .. ")" end
        return reply("Invalid parameters. Provide exactly one mode.\nAvailable agents: "
          .. (#names > 0 and table.concat(names, ", ") or "none"))
      end

      if scope ~= "user" and params.confirmProjectAgents ~= false and ctx.hasUI then
        local wanted, seen = {}, {}
        local function want(name)
          for _, a in ipairs(agents) do
            if a.name == name and a.source == "project" and not seen[name] then
              seen[name] = true
              wanted[#wanted + 1] = name
            end
          end
        end
        for _, s in ipairs(chain) do want(s.agent) end
        for _, t in ipairs(tasks) do want(t.agent) end
        if params.agent then want(params.agent) end
        if #wanted > 0 and not ctx.ui.confirm("Run project-local agents?", "Agents: " .. table.concat(wanted, ", ")
          .. "\nSource: " .. (project_dir or "(unknown)")
          .. "\n\nProject agents are repo-controlled. Only continue for trusted repositories.") then
          return reply("Canceled: project-local agents not approved.")
        end
      end

      if mode == "chain" then
        local results, previous = {}, ""
        for i, step in ipairs(chain) do
          local task = step.task:gsub("{previous}", function() return previous end)
          local result, proc
          result, proc = start(step.cwd or ctx.cwd, agents, step.agent, task, i, signal, function()
            local all = { table.unpack(results) }
            all[#all + 1] = result
            onUpdate({ content = { { type = "text", text = final_output(result.messages) ~= "" and final_output(result.messages) or "(running...)" } },
              details = details(all) })
          end)
          finish(result, proc, signal)
          results[#results + 1] = result
          if failed(result) then
            error(string.format("Chain stopped at step %d (%s): %s", i, step.agent, error_text(result)), 0)
          end
          previous = final_output(result.messages)
        end
        local last = final_output(results[#results].messages)
        return reply(last ~= "" and last or "(no output)", results)
      end

      if mode == "parallel" then
        if #tasks > MAX_PARALLEL then
          return reply(string.format("Too many parallel tasks (%d). Max is %d.", #tasks, MAX_PARALLEL))
        end
        local results, procs = {}, {}
        local function progress()
          local done = 0
          for _, r in ipairs(results) do if r.exitCode ~= -1 then done = done + 1 end end
          onUpdate({ content = { { type = "text", text = string.format("Parallel: %d/%d done, %d running...", done, #tasks, #tasks - done) } },
            details = details(results) })
        end
        local next_to_wait = 1
        for i, t in ipairs(tasks) do
          if i - next_to_wait >= MAX_RUNNING then
            finish(results[next_to_wait], procs[next_to_wait], signal)
            next_to_wait = next_to_wait + 1
            progress()
          end
          results[i], procs[i] = start(t.cwd or ctx.cwd, agents, t.agent, t.task, nil, signal, progress)
        end
        for i = next_to_wait, #tasks do
          finish(results[i], procs[i], signal)
          progress()
        end
        local ok, lines = 0, {}
        for i, r in ipairs(results) do
          if r.exitCode == 0 then ok = ok + 1 end
          local out = final_output(r.messages)
          local preview = #out > 100 and (out:sub(1, 100) .. "...") or out
          lines[i] = string.format("[%s] %s: %s", r.agent, r.exitCode == 0 and "completed" or "failed",
            preview ~= "" and preview or "(no output)")
        end
        return reply(string.format("Parallel: %d/%d succeeded\n\n%s", ok, #results, table.concat(lines, "\n\n")), results)
      end

      local result, proc
      result, proc = start(params.cwd or ctx.cwd, agents, params.agent, params.task, nil, signal, function()
        local out = final_output(result.messages)
        onUpdate({ content = { { type = "text", text = out ~= "" and out or "(running...)" } }, details = details({ result }) })
      end)
      finish(result, proc, signal)
      if failed(result) then
        error(string.format("Agent %s: %s", result.stopReason or "failed", error_text(result)), 0)
      end
      local out = final_output(result.messages)
      return reply(out ~= "" and out or "(no output)", { result })
    end,

    renderCall = function(args, theme)
      local scope = args.agentScope or "user"
      local title = theme.fg("toolTitle", theme.bold("subagent "))
      local function preview(task)
        task = (task or ""):gsub("{previous}", ""):match("^%s*(.-)%s*$")
        return #task > 40 and (task:sub(1, 40) .. "...") or task
      end
      local list = type(args.chain) == "table" and #args.chain > 0 and args.chain
        or type(args.tasks) == "table" and #args.tasks > 0 and args.tasks
      if list then
        local kind = list == args.chain and string.format("chain (%d steps)", #list) or string.format("parallel (%d tasks)", #list)
        local text = title .. theme.fg("accent", kind) .. theme.fg("muted", " [" .. scope .. "]")
        for i = 1, math.min(#list, 3) do
          local label = list == args.chain and theme.fg("muted", i .. ".") .. " " or ""
          text = text .. "\n  " .. label .. theme.fg("accent", tostring(list[i].agent)) .. theme.fg("dim", " " .. preview(list[i].task))
        end
        if #list > 3 then text = text .. "\n  " .. theme.fg("muted", string.format("... +%d more", #list - 3)) end
        return ui.Text(text, 0, 0)
      end
      return ui.Text(title .. theme.fg("accent", tostring(args.agent or "...")) .. theme.fg("muted", " [" .. scope .. "]")
        .. "\n  " .. theme.fg("dim", preview(args.task)), 0, 0)
    end,

    renderResult = function(result, options, theme)
      local d = result.details
      if type(d) ~= "table" or type(d.results) ~= "table" or #d.results == 0 then
        return ui.Text(result.content[1] and result.content[1].text or "(no output)", 0, 0)
      end
      local lines = {}
      for _, r in ipairs(d.results) do
        local icon = r.exitCode == -1 and theme.fg("warning", "⏳") or failed(r) and theme.fg("error", "✗") or theme.fg("success", "✓")
        local head = icon .. " " .. theme.fg("toolTitle", theme.bold(r.agent))
        if r.step then head = theme.fg("muted", "Step " .. r.step .. ": ") .. head end
        lines[#lines + 1] = head .. theme.fg("muted", " (" .. r.agentSource .. ")")
        if options.expanded then
          lines[#lines + 1] = theme.fg("muted", "Task: ") .. theme.fg("dim", r.task)
          for _, m in ipairs(r.messages) do
            if m.role == "assistant" and type(m.content) == "table" then
              for _, block in ipairs(m.content) do
                if block.type == "toolCall" then
                  lines[#lines + 1] = theme.fg("muted", "→ ") .. theme.fg("accent", block.name) .. " " .. theme.fg("dim", pi.json.encode(block.arguments or {}))
                end
              end
            end
          end
        end
        local out = final_output(r.messages)
        lines[#lines + 1] = out ~= "" and out or theme.fg("muted", r.exitCode == -1 and "(running...)" or "(no output)")
        local usage = usage_line(r.usage, r.model)
        if usage ~= "" then lines[#lines + 1] = theme.fg("dim", usage) end
      end
      return ui.Text(table.concat(lines, "\n"), 0, 0)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    -- Agent definitions: the agent folder and .pi/agents in this folder or above.
    fs = { read = { "$agent", "/**/.pi/agents" } },
    exec = { "$pi" },
  },
  setup = setup,
}
