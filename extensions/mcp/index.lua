-- mcp: Model Context Protocol servers as pi tools.
--
-- Reads the `mcpServers` map of ~/.pi/agent/mcp.json and (in a trusted project)
-- .pi/mcp.json; stdio servers (`command`, `args`, `env`, `cwd`) and streamable HTTP
-- servers (`url`, `headers`). Each server's tools become `<server>_<tool>`, its
-- prompts `/<server>:<prompt>`, its resources are read with `mcp_resource`. A server
-- starts on first use: until its tool list is known (cached in mcp-cache.json), the
-- `mcp` tool lists and calls its tools. `/mcp` shows them. See docs/mcp.md.
--
--   pi -e mcp

local config = require("config")
local client = require("client")
local content = require("content")

---@param pi pi.API
local function setup(pi)
  local NS = "ext.mcp."
  local function tr(key, params)
    return t(NS .. key, params)
  end

  ---@type table<string, table<string, any>>
  local servers = {} -- name -> {name, cfg, state, error, conn, tools, prompts}
  local order = {}
  local registered = {} -- tool and command names already registered
  local cache = {}
  local loaded = false
  local notify = function(_, _) end

  local function tool_name(server, tool)
    local name = (server .. "_" .. tool):gsub("[^%w_]", "_")
    return name:sub(1, 64)
  end

  local connect -- forward

  local function call(server, method, params, signal)
    local conn, err = connect(server, signal)
    if not conn then
      return nil, err
    end
    local result, why, kind = conn.request(method, params, server.cfg.timeout, signal)
    if result then
      return result
    end
    if kind == "timeout" then
      local msg = tr("error.timeout", { server = server.name, method = method, ms = server.cfg.timeout })
      if conn.garbage then
        msg = msg .. " " .. tr("error.garbage", { text = conn.garbage })
      end
      -- A server that does not answer is restarted on the next call.
      conn.close()
      server.conn, server.state = nil, "idle"
      return nil, msg
    elseif kind == "aborted" then
      return nil, tr("error.cancelled", { server = server.name })
    elseif kind == "closed" then
      local tail = conn.stderr ~= "" and ("\n" .. conn.stderr) or ""
      return nil, tr("error.closed", { server = server.name, reason = why }) .. tail
    end
    return nil, tr("error.server", { server = server.name, message = why })
  end

  -- Call `tool` of `server` with `arguments`: a pi tool result, or an error raised.
  local function run_tool(server, tool, arguments, signal)
    if server.state == "disabled" then
      error(tr("error.disabled", { server = server.name }), 0)
    end
    local result, err = call(server, "tools/call", { name = tool, arguments = arguments }, signal)
    if not result then
      error(err, 0)
    end
    local blocks = content.map(pi, result)
    if result.isError then
      local texts = {}
      for _, c in ipairs(blocks) do
        texts[#texts + 1] = c.text or ""
      end
      error(table.concat(texts, "\n"), 0)
    end
    return { content = blocks, details = { server = server.name, tool = tool } }
  end

  local function register_tool(server, tool)
    local name = tool_name(server.name, tool.name)
    if registered[name] then
      return
    end
    registered[name] = true
    pi.registerTool({
      name = name,
      label = server.name .. ": " .. (tool.title or tool.name),
      description = tool.description or (server.name .. " " .. tool.name),
      parameters = content.schema(pi, tool.inputSchema),
      execute = function(_, params, signal)
        return run_tool(server, tool.name, params, signal)
      end,
    })
  end

  local function prompt_text(result)
    local parts = {}
    for _, m in ipairs(result.messages or {}) do
      local c = m.content or {}
      if c.type == "text" then
        parts[#parts + 1] = c.text
      elseif c.type == "resource" and type(c.resource) == "table" and c.resource.text then
        parts[#parts + 1] = c.resource.text
      end
    end
    return table.concat(parts, "\n\n")
  end

  local function register_prompt(server, prompt)
    local name = server.name .. ":" .. prompt.name
    if registered["/" .. name] then
      return
    end
    registered["/" .. name] = true
    pi.registerCommand(name, {
      description = prompt.description or tr("prompt.description", { server = server.name }),
      handler = function(args, ctx)
        local arguments = {}
        local declared = prompt.arguments or {}
        for key, value in (args or ""):gmatch("([%w_%-]+)=(%S+)") do
          arguments[key] = value
        end
        if next(arguments) == nil and #declared > 0 and args and args:match("%S") then
          arguments[declared[1].name] = args:match("^%s*(.-)%s*$")
        end
        local result, err = call(server, "prompts/get", { name = prompt.name, arguments = arguments })
        if not result then
          ctx.ui.notify(err, "error")
          return
        end
        pi.sendUserMessage(prompt_text(result))
      end,
    })
  end

  -- A tool pi refuses (a schema it cannot use) is reported and left out; the rest register.
  local function register_all(server)
    for _, tool in ipairs(server.tools or {}) do
      local ok, err = pcall(register_tool, server, tool)
      if not ok then
        notify(tr("error.tool_refused", { server = server.name, tool = tostring(tool.name), message = tostring(err) }), "warning")
      end
    end
    for _, prompt in ipairs(server.prompts or {}) do
      pcall(register_prompt, server, prompt)
    end
  end

  -- Start a server (or wait for the start under way); its tools and prompts are listed
  -- and registered. Returns the connection or nil and why.
  connect = function(server, signal)
    if server.state == "disabled" then
      return nil, tr("error.disabled", { server = server.name })
    end
    if server.conn and not server.conn.closed then
      if server.ready then
        server.ready.await(nil, signal)
      end
      if server.state == "connected" then
        return server.conn
      end
      return nil, server.error
    end
    server.state, server.error = "connecting", nil
    server.ready = pi.promise()
    local conn
    conn = client.new(pi, server.name, server.cfg, function(reason)
      if server.conn == conn and server.state ~= "disabled" then
        server.state = "idle"
        server.error = tr("error.closed", { server = server.name, reason = reason })
      end
    end)
    server.conn = conn
    local ok, err, kind = conn.open(server.cfg.initTimeout)
    if ok then
      server.tools = conn.list("tools/list", "tools", server.cfg.initTimeout) or server.tools or {}
      if conn.capabilities.prompts then
        server.prompts = conn.list("prompts/list", "prompts", server.cfg.initTimeout) or {}
      end
      server.resources = conn.capabilities.resources ~= nil
      server.state = "connected"
      register_all(server)
      cache[server.name] = {
        key = config.fingerprint(pi, server.cfg),
        tools = server.tools,
        prompts = server.prompts or {},
      }
      config.write_cache(pi, cache)
    else
      conn.close()
      server.conn = nil
      server.state = "failed"
      if kind == "timeout" then
        server.error = tr("error.init_timeout", { server = server.name, ms = server.cfg.initTimeout })
      else
        server.error = tr("error.init_failed", { server = server.name, message = tostring(err) })
      end
      if conn.stderr ~= "" then
        server.error = server.error .. "\n" .. conn.stderr
      end
      notify(server.error, "warning")
    end
    local ready = server.ready
    server.ready = nil
    ready.resolve(true)
    if server.state == "connected" then
      return conn
    end
    return nil, server.error
  end

  local function load(trusted)
    if loaded then
      return
    end
    loaded = true
    local found, problems, untrusted = config.load(pi, trusted)
    for _, p in ipairs(problems) do
      notify(tr("config.problem", { problem = p }), "warning")
    end
    if #untrusted > 0 then
      notify(tr("config.untrusted", { servers = table.concat(untrusted, ", ") }), "warning")
    end
    cache = config.read_cache(pi)
    for name, cfg in pairs(found) do
      order[#order + 1] = name
      ---@type table<string, any>
      local server = { name = name, cfg = cfg, state = cfg.disabled and "disabled" or "idle" }
      local cached = cache[name]
      if type(cached) == "table" and cached.key == config.fingerprint(pi, cfg) then
        server.tools, server.prompts = cached.tools, cached.prompts
      end
      servers[name] = server
      if server.state ~= "disabled" then
        register_all(server)
      end
    end
    table.sort(order)
    -- Servers whose tools are not known yet are reached through the `mcp` tool; none
    -- of them is started before the model (or `/mcp`) asks for it.
    local unlisted = {}
    for _, name in ipairs(order) do
      if servers[name].tools == nil and servers[name].state ~= "disabled" then
        unlisted[#unlisted + 1] = name
      end
    end
    if #unlisted > 0 then
      require("gateway").register(pi, {
        tr = tr,
        servers = servers,
        unlisted = unlisted,
        connect = connect,
        run_tool = run_tool,
        tool_name = tool_name,
      })
    end
  end

  -- Reports go to the transcript, or without a terminal UI to the log on stderr.
  local function reporter(ctx)
    return function(msg, level)
      if ctx.hasUI then
        ctx.ui.notify(msg, level)
      else
        pi.log.warn(msg)
      end
    end
  end

  pi.on("project_trust", function(event, ctx)
    notify = reporter(ctx)
    load(event.trusted)
  end)

  pi.on("session_start", function(_, ctx)
    notify = reporter(ctx)
    load(ctx.permissions and ctx.permissions.projectTrusted or false)
  end)

  pi.registerTool({
    name = "mcp_resource",
    label = "MCP resource",
    description = "List the resources of a configured MCP server (give only `server`) or read one (give `server` and `uri`).",
    parameters = {
      type = "object",
      properties = {
        server = { type = "string", description = "The MCP server's name" },
        uri = { type = "string", description = "The resource to read; leave out to list them" },
      },
      required = { "server" },
    },
    execute = function(_, params, signal)
      local server = servers[params.server]
      if not server then
        error(tr("error.unknown", { server = tostring(params.server) }), 0)
      end
      if params.uri == nil then
        local conn, err = connect(server, signal)
        if not conn then
          error(err, 0)
        end
        local list, why = conn.list("resources/list", "resources", server.cfg.timeout)
        if not list then
          error(tr("error.server", { server = server.name, message = tostring(why) }), 0)
        end
        local lines = {}
        for _, r in ipairs(list) do
          lines[#lines + 1] = r.uri .. "  " .. (r.name or "") .. (r.mimeType and ("  (" .. r.mimeType .. ")") or "")
        end
        return { content = { { type = "text", text = table.concat(lines, "\n") } } }
      end
      local result, err = call(server, "resources/read", { uri = params.uri }, signal)
      if not result then
        error(err, 0)
      end
      local content = {}
      for _, c in ipairs(result.contents or {}) do
        if c.text then
          content[#content + 1] = { type = "text", text = c.text }
        elseif c.blob and (c.mimeType or ""):match("^image/") then
          content[#content + 1] = { type = "image", data = c.blob, mimeType = c.mimeType }
        else
          content[#content + 1] = { type = "text", text = "[" .. tostring(c.mimeType) .. " " .. tostring(c.uri) .. "]" }
        end
      end
      return { content = content }
    end,
  })

  require("command").register(pi, {
    tr = tr,
    servers = servers,
    order = order,
    connect = connect,
    tool_name = tool_name,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = { read = { "$agent/mcp.json", ".pi/mcp.json" }, write = { "$agent/mcp-cache.json" } },
    exec = { "*" },
    net = { "*" },
  },
  setup = setup,
}
