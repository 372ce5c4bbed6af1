-- One connection to an MCP server: JSON-RPC 2.0 over a child process's stdio
-- (one message a line) or over streamable HTTP (POST, answered with JSON or with
-- server-sent events). `request` yields until the answer, a timeout or the signal.

local M = {}

local PROTOCOL = "2025-06-18"
local STDERR_KEEP = 2000

---@param pi pi.API
---@param name string
---@param cfg table the server's entry of mcp.json
---@param on_close fun(reason: string) called once when a stdio server exits
function M.new(pi, name, cfg, on_close)
  ---@type table<string, any>
  local conn = {
    name = name,
    cfg = cfg,
    pending = {},
    next_id = 0,
    closed = false,
    stderr = "",
    garbage = nil,
    session = nil,
    protocol = nil,
  }

  local function settle(msg)
    local waiter = conn.pending[msg.id]
    if waiter then
      conn.pending[msg.id] = nil
      waiter.resolve(msg)
    end
  end

  -- A request from the server (ping, roots, sampling): ping is answered, the rest refused.
  local function answer_server(msg, send)
    if msg.method == "ping" then
      send({ jsonrpc = "2.0", id = msg.id, result = {} })
    else
      send({ jsonrpc = "2.0", id = msg.id, error = { code = -32601, message = "Method not found" } })
    end
  end

  local function handle_message(msg, send)
    if type(msg) ~= "table" then
      return false
    end
    if msg.id ~= nil and (msg.result ~= nil or msg.error ~= nil) then
      settle(msg)
    elseif msg.method ~= nil and msg.id ~= nil then
      answer_server(msg, send)
    elseif msg.method == nil then
      return false
    end
    return true
  end

  local function handle_line(line, send)
    if line:match("^%s*$") then
      return
    end
    local ok, msg = pcall(pi.json.decode, line)
    if not ok or not handle_message(msg, send) then
      conn.garbage = line:sub(1, 200)
    end
  end

  local function fail_all(reason)
    for id, waiter in pairs(conn.pending) do
      conn.pending[id] = nil
      waiter.resolve({ closed = true, reason = reason })
    end
  end

  -- stdio ---------------------------------------------------------------
  local function start_stdio()
    local buf = ""
    local send
    local proc = pi.spawn(cfg.command, cfg.args or {}, {
      cwd = cfg.cwd,
      env = cfg.env,
      stdin = true,
      mode = "raw",
      onStdout = function(chunk)
        buf = buf .. chunk
        while true do
          local i = buf:find("\n", 1, true)
          if not i then
            break
          end
          local line = buf:sub(1, i - 1)
          buf = buf:sub(i + 1)
          handle_line(line, send)
        end
      end,
      onStderr = function(chunk)
        conn.stderr = (conn.stderr .. chunk):sub(-STDERR_KEEP)
      end,
      onExit = function(code, killed)
        conn.closed = true
        local reason = killed and "stopped" or ("exited with code " .. tostring(code))
        fail_all(reason)
        on_close(reason)
      end,
    })
    conn.proc = proc
    send = function(msg)
      return proc.write(pi.json.encode(msg) .. "\n")
    end
    conn.send = send
  end

  -- streamable HTTP -------------------------------------------------------
  local function http_headers()
    local h = {
      ["content-type"] = "application/json",
      ["accept"] = "application/json, text/event-stream",
    }
    for k, v in pairs(cfg.headers or {}) do
      h[k] = v
    end
    if conn.session then
      h["mcp-session-id"] = conn.session
    end
    if conn.protocol then
      h["mcp-protocol-version"] = conn.protocol
    end
    return h
  end

  -- POST one message; answers arrive through `handle_message`. Returns nil or an error.
  local function post(msg, timeout, signal)
    local resp, err = pi.http.request({
      method = "POST",
      url = cfg.url,
      headers = http_headers(),
      body = pi.json.encode(msg),
      timeout = timeout,
      signal = signal,
      stream = true,
    })
    if not resp then
      return err
    end
    if resp.headers["mcp-session-id"] then
      conn.session = resp.headers["mcp-session-id"]
    end
    if resp.status == 202 then
      resp.close()
      return nil
    end
    if not resp.ok then
      local body = resp.read(1000) or ""
      resp.close()
      if resp.status == 404 and conn.session then
        conn.session = nil
        conn.closed = true
      end
      return ("HTTP %d %s"):format(resp.status, body:sub(1, 200))
    end
    local kind = resp.headers["content-type"] or ""
    if kind:find("text/event-stream", 1, true) then
      while true do
        local ev, e = resp.nextEvent(timeout)
        if not ev then
          resp.close()
          return e
        end
        if ev.event == "message" and ev.data ~= "" then
          handle_line(ev.data, conn.send)
        end
        if msg.id ~= nil and conn.pending[msg.id] == nil then
          resp.close()
          return nil
        end
      end
    end
    local chunks = {}
    while true do
      local chunk, e = resp.read(timeout)
      if not chunk then
        if e then
          return e
        end
        break
      end
      chunks[#chunks + 1] = chunk
    end
    local body = table.concat(chunks)
    local ok, decoded = pcall(pi.json.decode, body)
    if not ok then
      conn.garbage = body:sub(1, 200)
      return nil
    end
    if decoded[1] ~= nil then
      for _, m in ipairs(decoded) do
        handle_message(m, conn.send)
      end
    else
      if not handle_message(decoded, conn.send) then
        conn.garbage = body:sub(1, 200)
      end
    end
    return nil
  end

  local function start_http()
    conn.send = function(msg)
      -- Answers to server requests and notifications: fire and forget.
      pi.setTimeout(function()
        post(msg, 10000)
      end, 0)
      return true
    end
  end

  -- requests --------------------------------------------------------------

  --- Send a request and wait for its answer: `result` or `nil, message, kind`
  --- (kind: "timeout", "aborted", "closed", "error").
  function conn.request(method, params, timeout, signal)
    if conn.closed then
      return nil, "the connection is closed", "closed"
    end
    conn.next_id = conn.next_id + 1
    local id = conn.next_id
    local waiter = pi.promise()
    conn.pending[id] = waiter
    local msg = { jsonrpc = "2.0", id = id, method = method, params = params or pi.json.decode("{}") }
    if cfg.url then
      pi.setTimeout(function()
        local err = post(msg, timeout, signal)
        if err and conn.pending[id] then
          conn.pending[id] = nil
          waiter.resolve({ transport = err })
        elseif conn.pending[id] and not waiter.settled() then
          conn.pending[id] = nil
          waiter.resolve({ transport = "no answer in the response" })
        end
      end, 0)
    elseif not conn.send(msg) then
      conn.pending[id] = nil
      return nil, "cannot write to the server", "closed"
    end
    local answer, why = waiter.await(timeout, signal)
    conn.pending[id] = nil
    if why then
      conn.notify("notifications/cancelled", { requestId = id, reason = why })
      return nil, why, why == "aborted" and "aborted" or "timeout"
    end
    if answer.closed then
      return nil, answer.reason, "closed"
    end
    if answer.transport then
      return nil, answer.transport, "closed"
    end
    if answer.error then
      return nil, tostring(answer.error.message or pi.json.encode(answer.error)), "error"
    end
    return answer.result
  end

  --- Send a notification (no answer).
  function conn.notify(method, params)
    if conn.closed or not conn.send then
      return
    end
    conn.send({ jsonrpc = "2.0", method = method, params = params or pi.json.decode("{}") })
  end

  --- Start the transport and run the initialize handshake; `true` or `nil, message, kind`.
  function conn.open(timeout)
    if cfg.url then
      start_http()
    else
      local ok, err = pcall(start_stdio)
      if not ok then
        return nil, tostring(err), "closed"
      end
    end
    local result, err, kind = conn.request("initialize", {
      protocolVersion = PROTOCOL,
      capabilities = pi.json.decode("{}"),
      clientInfo = { name = "pi", version = "1" },
    }, timeout)
    if not result then
      return nil, err, kind
    end
    conn.protocol = result.protocolVersion or PROTOCOL
    conn.capabilities = result.capabilities or {}
    conn.notify("notifications/initialized")
    return true
  end

  --- Every page of a list method (`tools/list`, `prompts/list`, `resources/list`).
  function conn.list(method, key, timeout)
    local all, cursor = {}, nil
    repeat
      local result, err, kind = conn.request(method, cursor and { cursor = cursor } or nil, timeout)
      if not result then
        return nil, err, kind
      end
      for _, item in ipairs(result[key] or {}) do
        all[#all + 1] = item
      end
      cursor = result.nextCursor
    until cursor == nil or cursor == pi.json.null
    return all
  end

  --- End the connection (the process and its group are killed).
  function conn.close()
    conn.closed = true
    if conn.proc then
      conn.proc.kill()
    end
    fail_all("stopped")
  end

  return conn
end

return M
