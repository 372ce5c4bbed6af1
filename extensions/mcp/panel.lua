-- The `/mcp` panel: the servers with their state, tool count and last error. ↑/↓ pick
-- one, Enter shows its tools and error, `r` reconnects, `d` disables or enables, Esc
-- goes back or closes.

local ui = require("pi.ui")

local M = {}

--- Show the panel until it is closed. Returns false where pi draws no components (print,
--- JSON and RPC modes, `pi test`), so that the caller can print the list instead.
---@param pi pi.API
function M.show(pi, ctx, s)
  local tr = s.tr
  local result = ctx.ui.custom(function(tui, theme, _, done)
    local selected, viewing = 1, nil
    local timer = pi.setInterval(function()
      tui.requestRender()
    end, 500)

    local function server_at(i)
      return s.servers[s.order[i]]
    end

    local function tools_text(server)
      if server.tools == nil then
        return tr("panel.unlisted")
      end
      return tr("panel.tools", { count = #server.tools })
    end

    local function head(server)
      local kind = server.cfg.url and "http" or "stdio"
      return ("%s (%s) · %s · %s"):format(server.name, kind, s.state_text(server), tools_text(server))
    end

    local function list_lines()
      local lines = { theme.bold(tr("list.title", { count = #s.order })) }
      if #s.order == 0 then
        lines[#lines + 1] = theme.fg("dim", tr("list.none"))
      end
      for i, name in ipairs(s.order) do
        local server = s.servers[name]
        local mark = i == selected and theme.fg("accent", "› ") or "  "
        lines[#lines + 1] = mark .. (i == selected and theme.bold(head(server)) or head(server))
        if server.error and server.state ~= "connected" then
          local first = server.error:match("^[^\n]*")
          lines[#lines + 1] = "    " .. theme.fg("error", first)
        end
      end
      lines[#lines + 1] = theme.fg("dim", tr("panel.keys"))
      return lines
    end

    local function detail_lines(server, width)
      local lines = { theme.bold(head(server)) }
      for _, tool in ipairs(server.tools or {}) do
        local desc = (tool.description or ""):gsub("%s+", " ")
        lines[#lines + 1] = "  " .. s.tool_name(server.name, tool.name) .. theme.fg("dim", "  " .. desc)
      end
      if server.error and server.state ~= "connected" then
        for _, line in ipairs(ui.wrapTextWithAnsi(tr("list.error", { message = server.error }), width - 2)) do
          lines[#lines + 1] = "  " .. theme.fg("error", line)
        end
      end
      lines[#lines + 1] = theme.fg("dim", tr("panel.detail_keys"))
      return lines
    end

    local self = {}

    function self.render(width)
      local border = theme.fg("border", string.rep("─", width))
      local body = viewing and detail_lines(s.servers[viewing], width) or list_lines()
      local lines = { border }
      for _, line in ipairs(body) do
        lines[#lines + 1] = ui.truncateToWidth(line, width)
      end
      lines[#lines + 1] = border
      return lines
    end

    local function act(server, key)
      if key == "r" then
        pi.setTimeout(function()
          s.reconnect(server)
          tui.requestRender()
        end, 0)
      elseif key == "d" then
        if server.state == "disabled" then
          s.enable(server)
        else
          s.disable(server)
        end
      end
    end

    function self.handleInput(key)
      if viewing then
        if key == "r" or key == "d" then
          act(s.servers[viewing], key)
        elseif ui.matchesKey(key, "escape") or ui.matchesKey(key, "enter") or ui.matchesKey(key, "left") or key == "q" then
          viewing = nil
        end
        return true
      end
      local server = server_at(selected)
      if ui.matchesKey(key, "escape") or key == "q" then
        pi.clearInterval(timer)
        done("closed")
      elseif (ui.matchesKey(key, "up") or key == "k") and #s.order > 0 then
        selected = (selected - 2) % #s.order + 1
      elseif (ui.matchesKey(key, "down") or key == "j") and #s.order > 0 then
        selected = selected % #s.order + 1
      elseif ui.matchesKey(key, "enter") and server then
        viewing = server.name
      elseif (key == "r" or key == "d") and server then
        act(server, key)
      end
      return true
    end

    function self.dispose()
      pi.clearInterval(timer)
    end

    return self
  end)
  return result ~= nil
end

return M
