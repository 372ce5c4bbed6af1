-- background: commands that keep running while the conversation goes on (a dev
-- server, a watcher, a long test run). The model starts them with `bg_start`, reads
-- their latest output with `bg_output`, waits for a pattern or the end with `bg_wait`,
-- stops them with `bg_stop` and lists them with `bg_list`; `/jobs` shows them to you.
-- Each job keeps only its last lines (a ring buffer), and every job is stopped with
-- its process group when the session ends or pi quits. See docs/background.md.
--
--   pi -e background

local KEEP_LINES = 2000
local MAX_LINE = 4096

---@param pi pi.API
local function setup(pi)
  local function tr(key, params)
    return t("ext.background." .. key, params)
  end

  local jobs, order = {}, {}
  local next_id = 0

  local function push(job, line)
    if #line > MAX_LINE then
      line = line:sub(1, MAX_LINE) .. "…"
    end
    job.total = job.total + 1
    job.ring[(job.total - 1) % KEEP_LINES + 1] = line
    for i = #job.watchers, 1, -1 do
      local w = job.watchers[i]
      if w.pattern and line:find(w.pattern) then
        table.remove(job.watchers, i)
        w.promise.resolve(line)
      end
    end
  end

  local function tail(job, n)
    n = math.min(n, job.total, KEEP_LINES)
    local out = {}
    for k = job.total - n + 1, job.total do
      out[#out + 1] = job.ring[(k - 1) % KEEP_LINES + 1]
    end
    return out
  end

  local function status(job)
    if job.running then
      return tr("status.running")
    elseif job.killed then
      return tr("status.stopped")
    end
    return tr("status.exited", { code = tostring(job.code) })
  end

  local function find(id)
    local job = jobs[tostring(id)]
    if not job then
      error(tr("error.unknown", { id = tostring(id) }), 0)
    end
    return job
  end

  local function summary(job)
    return tr("summary", { id = job.id, status = status(job), lines = job.total, command = job.command })
  end

  local function start(command, cwd)
    next_id = next_id + 1
    local job = {
      id = tostring(next_id),
      command = command,
      ring = {},
      total = 0,
      mark = 0,
      running = true,
      watchers = {},
      started = os.time(),
    }
    job.proc = pi.spawn("bash", { "-c", command }, {
      cwd = cwd,
      onStdout = function(line)
        push(job, line)
      end,
      onStderr = function(line)
        push(job, line)
      end,
      onExit = function(code, killed)
        job.running, job.code, job.killed = false, code, killed
        for _, w in ipairs(job.watchers) do
          w.promise.resolve(nil)
        end
        job.watchers = {}
      end,
    })
    jobs[job.id] = job
    order[#order + 1] = job.id
    return job
  end

  local function text(s)
    return { content = { { type = "text", text = s } } }
  end

  pi.registerTool({
    name = "bg_start",
    label = "Background: start",
    description = "Start a shell command in the background and return its job id at once. "
      .. "Use it for servers, watchers and long runs; read its output later with bg_output or bg_wait.",
    parameters = {
      type = "object",
      properties = {
        command = { type = "string", description = "The bash command to run" },
        cwd = { type = "string", description = "Working directory (default: the current one)" },
      },
      required = { "command" },
    },
    execute = function(_, params)
      local job = start(params.command, params.cwd)
      return text(tr("started", { id = job.id, pid = tostring(job.proc.pid) }))
    end,
  })

  pi.registerTool({
    name = "bg_output",
    label = "Background: output",
    description = "The latest output lines of a background job, with its status.",
    parameters = {
      type = "object",
      properties = {
        id = { type = "string", description = "The job id" },
        lines = { type = "integer", description = "How many of the last lines (default 50)" },
      },
      required = { "id" },
    },
    execute = function(_, params)
      local job = find(params.id)
      local lines = tail(job, tonumber(params.lines) or 50)
      job.mark = job.total
      return text(summary(job) .. "\n" .. table.concat(lines, "\n"))
    end,
  })

  pi.registerTool({
    name = "bg_wait",
    label = "Background: wait",
    description = "Wait until a background job prints a line matching a Lua pattern, or ends, "
      .. "or the timeout passes; then show its latest output.",
    parameters = {
      type = "object",
      properties = {
        id = { type = "string", description = "The job id" },
        pattern = { type = "string", description = "Lua pattern to wait for (leave out to wait for the end)" },
        timeout = { type = "number", description = "Seconds to wait at most (default 30)" },
      },
      required = { "id" },
    },
    execute = function(_, params, signal)
      local job = find(params.id)
      local how
      -- A match among the lines not yet shown to the model counts at once.
      if params.pattern then
        for k = math.max(job.mark + 1, job.total - KEEP_LINES + 1), job.total do
          local line = job.ring[(k - 1) % KEEP_LINES + 1]
          if line:find(params.pattern) then
            how = tr("wait.matched", { line = line })
            break
          end
        end
      end
      if job.running and not how then
        local w = { pattern = params.pattern, promise = pi.promise() }
        job.watchers[#job.watchers + 1] = w
        local line, why = w.promise.await(math.floor((tonumber(params.timeout) or 30) * 1000), signal)
        if why then
          for i, other in ipairs(job.watchers) do
            if other == w then
              table.remove(job.watchers, i)
              break
            end
          end
          how = tr("wait." .. why)
        elseif line then
          how = tr("wait.matched", { line = line })
        end
      end
      how = how or tr("wait.ended")
      job.mark = job.total
      return text(how .. "\n" .. summary(job) .. "\n" .. table.concat(tail(job, 20), "\n"))
    end,
  })

  pi.registerTool({
    name = "bg_stop",
    label = "Background: stop",
    description = "Stop a background job and everything it started.",
    parameters = {
      type = "object",
      properties = { id = { type = "string", description = "The job id" } },
      required = { "id" },
    },
    execute = function(_, params)
      local job = find(params.id)
      job.proc.kill()
      return text(tr("stopped", { id = job.id }))
    end,
  })

  pi.registerTool({
    name = "bg_list",
    label = "Background: list",
    description = "List the background jobs of this session with their status.",
    parameters = { type = "object", properties = pi.json.decode("{}") },
    execute = function()
      if #order == 0 then
        return text(tr("none"))
      end
      local lines = {}
      for _, id in ipairs(order) do
        lines[#lines + 1] = summary(jobs[id])
      end
      return text(table.concat(lines, "\n"))
    end,
  })

  pi.registerCommand("jobs", {
    description = tr("command.description"),
    handler = function(args, ctx)
      local action, id = (args or ""):match("^%s*(%S+)%s*(%S*)")
      if action == "stop" and jobs[id] then
        jobs[id].proc.kill()
        ctx.ui.notify(tr("stopped", { id = id }), "info")
        return
      end
      if action and jobs[action] then
        local job = jobs[action]
        ctx.ui.notify(summary(job) .. "\n" .. table.concat(tail(job, 20), "\n"), "info")
        return
      end
      local shown = require("panel").show(pi, ctx, {
        tr = tr,
        jobs = jobs,
        order = order,
        tail = tail,
        status = status,
        summary = summary,
        stop = function(job)
          job.proc.kill()
        end,
      })
      if shown then
        return
      end
      if #order == 0 then
        ctx.ui.notify(tr("none"), "info")
        return
      end
      local lines = { tr("title", { count = #order }) }
      for _, jid in ipairs(order) do
        local job = jobs[jid]
        lines[#lines + 1] = summary(job)
        local last = tail(job, 1)[1]
        if last then
          lines[#lines + 1] = "  " .. last
        end
      end
      ctx.ui.notify(table.concat(lines, "\n"), "info")
    end,
  })

  local function stop_all()
    for _, id in ipairs(order) do
      jobs[id].proc.kill()
    end
  end
  pi.on("session_shutdown", stop_all)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "bash" } },
  setup = setup,
}
