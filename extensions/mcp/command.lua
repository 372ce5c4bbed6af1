-- `/mcp`: the servers with their state, tools and errors (a panel in the terminal UI,
-- a list elsewhere); `/mcp reconnect <name>`, `/mcp disable <name>`, `/mcp enable <name>`.

local M = {}

---@param pi pi.API
function M.register(pi, s)
  local tr = s.tr

  local function state_text(server)
    return tr("state." .. server.state)
  end

  local function describe(server)
    local kind = server.cfg.url and "http" or "stdio"
    local lines = {
      tr("list.server", {
        server = server.name,
        transport = kind,
        state = state_text(server),
        tools = server.tools and tr("panel.tools", { count = #server.tools }) or tr("panel.unlisted"),
      }),
    }
    if server.tools and #server.tools > 0 then
      local names = {}
      for _, tool in ipairs(server.tools) do
        names[#names + 1] = s.tool_name(server.name, tool.name)
      end
      lines[#lines + 1] = "  " .. table.concat(names, ", ")
    end
    if server.error and server.state ~= "connected" then
      lines[#lines + 1] = "  " .. tr("list.error", { message = server.error })
    end
    return table.concat(lines, "\n")
  end

  local function list()
    if #s.order == 0 then
      return tr("list.none")
    end
    local parts = { tr("list.title", { count = #s.order }) }
    for _, name in ipairs(s.order) do
      parts[#parts + 1] = describe(s.servers[name])
    end
    return table.concat(parts, "\n")
  end

  local function disable(server)
    if server.conn then
      server.conn.close()
      server.conn = nil
    end
    server.state = "disabled"
  end

  local function enable(server)
    if server.state == "disabled" then
      server.state = "idle"
    end
  end

  -- Stop the server if it runs, then start it again and read its lists.
  local function reconnect(server)
    if server.conn then
      server.conn.close()
      server.conn = nil
    end
    server.state = "idle"
    return s.connect(server)
  end

  local function act(action, name, ctx)
    local server = s.servers[name]
    if not server then
      ctx.ui.notify(tr("error.unknown", { server = tostring(name) }), "error")
      return
    end
    if action == "disable" then
      disable(server)
      ctx.ui.notify(tr("done.disabled", { server = name }), "info")
      return
    end
    local conn, err = reconnect(server)
    if conn then
      ctx.ui.notify(tr("done.connected", { server = name, count = #(server.tools or {}) }), "info")
    else
      ctx.ui.notify(err, "error")
    end
  end

  pi.registerCommand("mcp", {
    description = tr("command.description"),
    getArgumentCompletions = function(prefix)
      local items = {}
      for _, word in ipairs({ "reconnect", "disable", "enable" }) do
        for _, name in ipairs(s.order) do
          local value = word .. " " .. name
          if value:sub(1, #prefix) == prefix then
            items[#items + 1] = { value = value, label = value }
          end
        end
      end
      return items
    end,
    handler = function(args, ctx)
      local action, name = (args or ""):match("^%s*(%S+)%s+(%S+)")
      if action == "reconnect" or action == "enable" or action == "disable" then
        act(action, name, ctx)
        return
      end
      local shown = require("panel").show(pi, ctx, {
        tr = tr,
        servers = s.servers,
        order = s.order,
        state_text = state_text,
        tool_name = s.tool_name,
        reconnect = reconnect,
        disable = disable,
        enable = enable,
      })
      if not shown then
        ctx.ui.notify(list(), "info")
      end
    end,
  })
end

return M
