-- Running one pi sub-agent: the same pi program in JSON print mode, its task on
-- standard input, its events read line by line into a live `run` record.

local M = {}

-- JSON decoder (pi.json.decode), set by M.start.
local decode

--- The `provider/id` of the model `ctx` runs on, or nil.
---@param ctx pi.Context
function M.model_of(ctx)
  local m = ctx.model
  if type(m) == "table" and m.provider and m.id then return m.provider .. "/" .. m.id end
  return nil
end

--- Command-line arguments of a sub-agent.
--- spec: {model?, tools?, systemPrompt?, session? (file to keep the conversation in), thinking?}
function M.args(spec)
  local args = { "--mode", "json", "-p", "--no-extensions" }
  local function add(...)
    for _, a in ipairs({ ... }) do args[#args + 1] = a end
  end
  if spec.session then add("--session", spec.session) else add("--no-session") end
  if spec.model then add("--model", spec.model) end
  if spec.tools then
    if spec.tools == "" then add("--no-tools") else add("--tools", spec.tools) end
  end
  if spec.thinking then add("--thinking", spec.thinking) end
  if spec.systemPrompt and spec.systemPrompt ~= "" then
    add("--append-system-prompt", spec.systemPrompt)
  end
  return args
end

local function last_line(text)
  local last = ""
  for line in text:gmatch("[^\n]+") do
    if line:match("%S") then last = line end
  end
  return last
end

local function text_of(message)
  local parts = {}
  for _, block in ipairs(type(message.content) == "table" and message.content or {}) do
    if block.type == "text" and block.text then parts[#parts + 1] = block.text end
  end
  if type(message.content) == "string" then parts[1] = message.content end
  return table.concat(parts, "\n")
end

--- Fold one JSON event line into `run`; returns true when something visible changed.
function M.apply(run, line)
  local ok, event = pcall(decode, line)
  if not ok or type(event) ~= "table" then return false end
  local kind = event.type
  if kind == "message_start" and event.message and event.message.role == "assistant" then
    run.streaming = ""
  elseif kind == "message_update" then
    local e = event.assistantMessageEvent
    if type(e) == "table" and e.type == "text_delta" and e.delta then
      run.streaming = (run.streaming or "") .. e.delta
      local last = last_line(run.streaming)
      if last ~= "" then run.lastLine = last end
      return true
    end
    return false
  elseif kind == "message_end" and event.message and event.message.role == "assistant" then
    local text = text_of(event.message)
    if text ~= "" then
      run.text = text
      run.lastLine = last_line(text)
    end
    local usage = event.message.usage
    if type(usage) == "table" and tonumber(usage.input) then
      run.inputTokens = tonumber(usage.input) + (tonumber(usage.cacheRead) or 0)
    end
    if event.message.stopReason == "error" or event.message.stopReason == "aborted" then
      run.error = event.message.errorMessage or ("the model request ended with " .. event.message.stopReason)
    else
      run.error = nil
    end
  elseif kind == "tool_execution_start" then
    run.tools = run.tools + 1
    run.lastLine = "→ " .. tostring(event.toolName)
  elseif kind == "turn_start" then
    run.turns = run.turns + 1
  else
    return false
  end
  return true
end

--- Seconds a run has taken so far.
function M.elapsed(run)
  return (run.finishedAt or os.time()) - run.startedAt
end

--- Start a sub-agent for `prompt`. `spec` as for M.args; `onChange(run)` is called
--- whenever the run changes. Returns the run record:
--- {status = "running"|"done"|"error"|"killed", tools, turns, lastLine, text, error,
---  startedAt, finishedAt, process}.
---@param pi pi.API
function M.start(pi, spec, prompt, onChange)
  decode = pi.json.decode
  local run = {
    status = "running", tools = 0, turns = 0, lastLine = "", text = "",
    startedAt = os.time(), spec = spec, stderr = {},
  }
  local function changed()
    if onChange then onChange(run) end
  end
  run.process = pi.spawn(spec.program or pi.execPath, M.args(spec), {
    stdin = prompt,
    signal = spec.signal,
    cwd = spec.cwd,
    onStdout = function(line)
      if M.apply(run, line) then changed() end
    end,
    onStderr = function(line)
      if #run.stderr < 50 then run.stderr[#run.stderr + 1] = line end
    end,
    onExit = function(code, killed)
      run.finishedAt = os.time()
      if killed then
        run.status = "killed"
      elseif code ~= 0 or run.error then
        run.status = "error"
        run.error = run.error or table.concat(run.stderr, "\n")
        if run.error == "" then run.error = "the sub-agent exited with code " .. tostring(code) end
      else
        run.status = "done"
      end
      changed()
    end,
  })
  return run
end

--- Start a sub-agent and wait for it (yields). Returns the finished run.
function M.run(pi, spec, prompt, onChange)
  local run = M.start(pi, spec, prompt, onChange)
  run.process.wait()
  return run
end

--- The answer of a finished run, or its error as text.
function M.answer(run)
  if run.status == "done" then return run.text end
  if run.status == "killed" then return "(stopped before it finished)" end
  return "error: " .. tostring(run.error)
end

return M
