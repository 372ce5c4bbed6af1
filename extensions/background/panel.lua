-- The `/jobs` panel: the jobs with their state, command, age and last line. ↑/↓ pick
-- one, Enter shows its recent output, `s` stops it, Esc goes back or closes.

local ui = require("pi.ui")

local M = {}

local OUTPUT_LINES = 15

--- "42s", "5m", "3h" for a number of seconds.
function M.age(seconds)
  if seconds < 60 then
    return tostring(seconds) .. "s"
  elseif seconds < 3600 then
    return tostring(seconds // 60) .. "m"
  end
  return tostring(seconds // 3600) .. "h"
end

--- Show the panel until it is closed. Returns false where pi draws no components (print,
--- JSON and RPC modes, `pi test`), so that the caller can print the list instead.
---@param pi pi.API
function M.show(pi, ctx, s)
  local tr = s.tr
  local result = ctx.ui.custom(function(tui, theme, _, done)
    local selected, viewing = 1, nil
    local timer = pi.setInterval(function()
      tui.requestRender()
    end, 1000)

    local function close()
      pi.clearInterval(timer)
      done("closed")
    end

    local function current()
      return s.jobs[s.order[selected]]
    end

    local self = {}

    local function list_lines(width)
      local lines = { theme.bold(tr("title", { count = #s.order })) }
      if #s.order == 0 then
        lines[#lines + 1] = theme.fg("dim", tr("none"))
      end
      for i, id in ipairs(s.order) do
        local job = s.jobs[id]
        local mark = i == selected and theme.fg("accent", "› ") or "  "
        local head = ("[%s] %s · %s · %s"):format(job.id, s.status(job), M.age(os.time() - job.started), job.command)
        lines[#lines + 1] = mark .. (i == selected and theme.bold(head) or head)
        local last = s.tail(job, 1)[1]
        if last then
          lines[#lines + 1] = "    " .. theme.fg("dim", last)
        end
      end
      lines[#lines + 1] = theme.fg("dim", tr("panel.keys"))
      return lines
    end

    local function output_lines(job)
      local lines = { theme.bold(s.summary(job)) }
      local recent = s.tail(job, OUTPUT_LINES)
      if #recent == 0 then
        lines[#lines + 1] = theme.fg("dim", tr("panel.no_output"))
      end
      for _, line in ipairs(recent) do
        lines[#lines + 1] = "  " .. line
      end
      lines[#lines + 1] = theme.fg("dim", tr("panel.output_keys"))
      return lines
    end

    function self.render(width)
      local border = theme.fg("border", string.rep("─", width))
      local body = viewing and s.jobs[viewing] and output_lines(s.jobs[viewing]) or list_lines(width)
      local lines = { border }
      for _, line in ipairs(body) do
        lines[#lines + 1] = ui.truncateToWidth(line, width)
      end
      lines[#lines + 1] = border
      return lines
    end

    function self.handleInput(key)
      if viewing then
        if key == "s" then
          s.stop(s.jobs[viewing])
        elseif ui.matchesKey(key, "escape") or ui.matchesKey(key, "enter") or ui.matchesKey(key, "left") or key == "q" then
          viewing = nil
        end
        return true
      end
      if ui.matchesKey(key, "escape") or key == "q" then
        close()
      elseif (ui.matchesKey(key, "up") or key == "k") and #s.order > 0 then
        selected = (selected - 2) % #s.order + 1
      elseif (ui.matchesKey(key, "down") or key == "j") and #s.order > 0 then
        selected = selected % #s.order + 1
      elseif ui.matchesKey(key, "enter") and current() then
        viewing = current().id
      elseif key == "s" and current() then
        s.stop(current())
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
