-- Tool counter: a two-line footer.
--   line 1: model, context meter, tokens in/out and cost
--   line 2: folder and git branch, then calls per tool
-- Run: pi -e extensions/playground/tool-counter.lua
local function setup(pi)
  local i18n = require("lib.i18n")
  local T = i18n.texts(pi, i18n.load(pi), {
    no_model = "counter.no-model", input = "counter.in", output = "counter.out", no_tools = "counter.no-tools",
  })
  local ui = require("pi.ui")
  local fmt = require("lib.fmt")
  local tally = require("lib.tally").new()
  require("lib.defaults").apply(pi, "tool-counter")
  local tui_ref, branch

  local function usage_totals(ctx)
    local input, output, cost = 0, 0, 0
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      local m = entry.type == "message" and entry.message
      if m and m.role == "assistant" and m.usage then
        input = input + (m.usage.input or 0)
        output = output + (m.usage.output or 0)
        cost = cost + ((m.usage.cost or {}).total or 0)
      end
    end
    return input, output, cost
  end

  -- Output of `git <args>` in the working directory, or nil.
  local function git(args)
    local ok, result = pcall(pi.exec, "git", args, { timeout = 2000 })
    if not ok or result.code ~= 0 then return nil end
    local out = result.stdout:gsub("%s+$", "")
    return out ~= "" and out or nil
  end

  -- The branch, or the commit when HEAD is detached.
  local function read_branch()
    branch = git({ "branch", "--show-current" }) or git({ "rev-parse", "--short", "HEAD" })
    if tui_ref then tui_ref.requestRender() end
  end

  local function render(ctx, theme, width)
    local input, output, cost = usage_totals(ctx)
    local usage = ctx.getContextUsage()
    local percent = usage and usage.percent or 0
    local model = ctx.model and ctx.model.id or T.no_model
    local top_left = " " .. theme.fg("accent", model) .. "  "
      .. theme.fg("dim", string.format("[%s] %d%%", fmt.bar(percent, 10), math.floor(percent + 0.5)))
    local top_right = theme.fg("muted", string.format("%s %s  %s %s  $%.2f ", fmt.count(input), T.input, fmt.count(output), T.output, cost))

    local place = " " .. fmt.basename(ctx.cwd)
    if branch then place = place .. theme.fg("dim", " (" .. branch .. ")") end
    local counts = {}
    for _, t in ipairs(tally:sorted()) do
      counts[#counts + 1] = theme.fg("accent", t.name) .. " " .. t.count
    end
    local bottom_right = (#counts > 0 and table.concat(counts, "  ") or theme.fg("dim", T.no_tools)) .. " "
    return {
      ui.truncateToWidth(fmt.spread(top_left, top_right, width), width),
      ui.truncateToWidth(fmt.spread(place, bottom_right, width), width),
    }
  end

  local function install(ctx)
    tally:rebuild(ctx)
    ctx.ui.setFooter(function(tui, theme)
      tui_ref = tui
      return { render = function(width) return render(ctx, theme, width) end }
    end)
    read_branch()
  end

  local function refresh() if tui_ref then tui_ref.requestRender() end end
  pi.on("session_start", function(_, ctx) install(ctx) end)
  pi.on("session_tree", function(_, ctx) tally:rebuild(ctx); refresh() end)
  pi.on("tool_execution_end", function(event)
    tally:add(event.toolName or "?")
    refresh()
  end)
  pi.on("turn_end", refresh)
  -- The agent may have switched branches with git.
  pi.on("agent_end", read_branch)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "$extension" } }, exec = { "git" } },
  setup = setup,
}
