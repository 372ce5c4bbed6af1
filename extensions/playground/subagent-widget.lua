-- Background sub-agents. `/sub <task>` starts a pi sub-agent on the current model
-- and returns at once; a widget per sub-agent shows its state, time, tool count
-- and latest line. A finished sub-agent's answer comes back to the conversation
-- as a follow-up message. `/subcont <n> <follow-up>` continues sub-agent n in its
-- own session; `/subrm <n>` stops and removes it.
-- Run: pi -e extensions/playground/subagent-widget.lua
local function setup(pi)
  local runner = require("orchestration.runner")
  local view = require("orchestration.view")
  local tr = require("lib.i18n").load(pi)
  require("lib.defaults").apply(pi, "subagent-widget")

  local subs = {} -- id -> {id, task, session, run}
  local next_id = 1
  local ui_ctx
  local ticker

  local function session_dir()
    local dir = os.getenv("PI_CODING_AGENT_DIR")
    if not dir or dir == "" then dir = (os.getenv("HOME") or ".") .. "/.pi/agent" end
    return dir .. "/sessions/subagents"
  end

  local function widget_lines(sub)
    local run = sub.run
    local head = view.icon(ui_ctx, run.status) .. " " .. tr("sub.widget", {
      id = sub.id, task = view.clip(sub.task, 40), time = view.duration(runner.elapsed(run)), count = run.tools,
    })
    local detail = run.status == "error" and run.error or run.lastLine
    return { head, "  " .. view.paint(ui_ctx, "dim", view.clip(detail, 70)) }
  end

  local function draw(sub)
    if ui_ctx then ui_ctx.ui.setWidget("subagent-" .. sub.id, widget_lines(sub)) end
  end

  local function any_running()
    for _, sub in pairs(subs) do
      if sub.run.status == "running" then return true end
    end
    return false
  end

  -- Redraw every second while something runs, so the elapsed time moves.
  local function tick()
    if ticker or not any_running() then return end
    ticker = pi.setInterval(function()
      for _, sub in pairs(subs) do draw(sub) end
      if not any_running() then
        pi.clearInterval(ticker)
        ticker = nil
      end
    end, 1000)
  end

  local function deliver(sub)
    local run = sub.run
    if run.status == "killed" then return end
    local key = run.status == "done" and "sub.result.done" or "sub.result.failed"
    pi.sendMessage({
      customType = "subagent-result",
      content = tr(key, { id = sub.id, time = view.duration(runner.elapsed(run)) }) .. "\n" .. runner.answer(run),
      display = true,
      details = { id = sub.id, task = sub.task, status = run.status, session = sub.session },
    }, { deliverAs = "followUp", triggerTurn = true })
  end

  local function launch(sub, prompt, ctx)
    sub.run = runner.start(pi, {
      model = runner.model_of(ctx),
      thinking = pi.getThinkingLevel(),
      session = sub.session,
    }, prompt, function(run)
      if subs[sub.id] ~= sub then return end -- removed with /subrm
      draw(sub)
      if run.status ~= "running" then deliver(sub) end
    end)
    draw(sub)
    tick()
  end

  local function find(arg, ctx)
    local n = tonumber(arg or "")
    local sub = n and subs[n]
    if not sub then
      ctx.ui.notify(tr("sub.unknown", { id = tostring(arg) }), "error")
    end
    return sub
  end

  pi.on("session_start", function(_, ctx) ui_ctx = ctx end)

  pi.registerCommand("sub", {
    description = tr("sub.cmd.sub"),
    handler = function(args, ctx)
      ui_ctx = ctx
      local task = args:match("^%s*(.-)%s*$")
      if task == "" then
        ctx.ui.notify(tr("sub.usage.sub"), "warning")
        return
      end
      local id = next_id
      next_id = next_id + 1
      local sub = {
        id = id,
        task = task,
        session = string.format("%s/subagent-%d-%d.jsonl", session_dir(), id, os.time()),
      }
      subs[id] = sub
      launch(sub, task, ctx)
      ctx.ui.notify(tr("sub.started", { id = id }), "info")
    end,
  })

  pi.registerCommand("subcont", {
    description = tr("sub.cmd.subcont"),
    handler = function(args, ctx)
      ui_ctx = ctx
      local n, prompt = args:match("^%s*(%S+)%s*(.-)%s*$")
      local sub = find(n, ctx)
      if not sub then return end
      if prompt == "" then
        ctx.ui.notify(tr("sub.usage.subcont"), "warning")
        return
      end
      if sub.run.status == "running" then
        ctx.ui.notify(tr("sub.still-running", { id = sub.id }), "warning")
        return
      end
      sub.task = prompt
      launch(sub, prompt, ctx)
    end,
  })

  pi.registerCommand("subrm", {
    description = tr("sub.cmd.subrm"),
    handler = function(args, ctx)
      ui_ctx = ctx
      local sub = find(args:match("%S+"), ctx)
      if not sub then return end
      subs[sub.id] = nil
      sub.run.process.kill()
      ctx.ui.setWidget("subagent-" .. sub.id, nil)
      ctx.ui.notify(tr("sub.removed", { id = sub.id }), "info")
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
