-- TillDone: work only happens on a task. The model keeps a task list with the
-- `tilldone` tool; each task is todo → in progress → done. Every other tool is
-- refused until some task is in progress. The current task shows under the
-- editor and a status slot counts what is left. The list lives in the tool
-- results, so /tree, /fork and /resume show the list of that point. When the
-- agent stops while tasks are still open, a nudge lists them and starts another
-- turn (once per prompt).
-- Run: pi -e extensions/playground/tilldone.lua
local function setup(pi)
  local ui = require("pi.ui")
  require("lib.defaults").apply(pi, "tilldone")
  local tr = require("lib.i18n").load(pi)
  local TOOL = "tilldone"
  local NEXT = { todo = "inprogress", inprogress = "done", done = "todo" }
  local ICON = { todo = "○", inprogress = "◐", done = "●" }
  local tasks, next_id, title = {}, 1, nil
  local ui_ctx

  local function count(status)
    local n = 0
    for _, t in ipairs(tasks) do if t.status == status then n = n + 1 end end
    return n
  end

  local function current()
    for _, t in ipairs(tasks) do if t.status == "inprogress" then return t end end
  end

  local function find(id)
    for i, t in ipairs(tasks) do if t.id == id then return t, i end end
    error(tr("tilldone.no-task", { id = tostring(id) }))
  end

  local function refresh()
    local ctx = ui_ctx
    if not ctx then return end
    if #tasks == 0 then
      ctx.ui.setStatus("tilldone", nil)
      ctx.ui.setWidget("tilldone-current", nil)
      return
    end
    local left = #tasks - count("done")
    ctx.ui.setStatus("tilldone", tr("tilldone.status", { count = #tasks, left = left }))
    local working = tr("tilldone.working")
    local all_done = tr("tilldone.all-done", { count = #tasks })
    local idle = tr("tilldone.idle", { count = left })
    ctx.ui.setWidget("tilldone-current", function(_, theme)
      return {
        render = function(width)
          local border = theme.fg("dim", string.rep("─", width))
          local cur, line = current(), nil
          if cur then
            line = theme.fg("accent", "◐ ") .. theme.fg("dim", working .. "  ")
              .. theme.fg("accent", "#" .. cur.id .. " ") .. theme.fg("success", cur.text)
          elseif left == 0 then
            line = theme.fg("success", "● " .. all_done)
          else
            line = theme.fg("warning", "○ ") .. theme.fg("dim", idle)
          end
          return { border, ui.truncateToWidth(" " .. line, width), border }
        end,
      }
    end, { placement = "belowEditor" })
  end

  local function rebuild(ctx)
    tasks, next_id, title = {}, 1, nil
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      local m = entry.type == "message" and entry.message
      if m and m.role == "toolResult" and m.toolName == TOOL and type(m.details) == "table" then
        tasks = m.details.tasks or {}
        next_id = m.details.nextId or (#tasks + 1)
        title = m.details.title
      end
    end
    ui_ctx = ctx
    refresh()
  end

  for _, event in ipairs({ "session_start", "session_tree" }) do
    pi.on(event, function(_, ctx) rebuild(ctx) end)
  end

  local function listing()
    if #tasks == 0 then return tr("tilldone.no-tasks") end
    local lines = { title and ("# " .. title) or nil }
    for _, t in ipairs(tasks) do
      lines[#lines + 1] = string.format("%s #%d [%s] %s", ICON[t.status], t.id, tr("tilldone.state." .. t.status), t.text)
    end
    return table.concat(lines, "\n")
  end

  local function need_text(params)
    if not params.text or params.text == "" then error(tr("tilldone.needs-text", { action = params.action })) end
    return params.text
  end

  local function add(text)
    for line in text:gmatch("[^\n]+") do
      line = line:gsub("^%s*[-*]%s*", "")
      if line ~= "" then
        tasks[#tasks + 1] = { id = next_id, text = line, status = "todo" }
        next_id = next_id + 1
      end
    end
  end

  local ACTIONS = {
    ["new-list"] = function(p)
      tasks, next_id, title = {}, 1, p.text
      return title and tr("tilldone.new-list-titled", { title = title }) or tr("tilldone.new-list")
    end,
    add = function(p)
      local first = next_id
      add(need_text(p))
      return first == next_id - 1 and tr("tilldone.added", { id = first })
        or tr("tilldone.added-range", { first = first, last = next_id - 1 })
    end,
    toggle = function(p)
      local t = find(p.id)
      t.status = NEXT[t.status]
      return tr("tilldone.toggled", { id = t.id, state = tr("tilldone.state." .. t.status) })
    end,
    remove = function(p)
      local t, i = find(p.id)
      table.remove(tasks, i)
      return tr("tilldone.removed", { id = t.id })
    end,
    update = function(p)
      local t = find(p.id)
      t.text = need_text(p)
      return tr("tilldone.updated", { id = t.id })
    end,
    list = function() return listing() end,
    clear = function()
      tasks = {}
      return tr("tilldone.cleared")
    end,
  }

  pi.registerTool({
    name = TOOL,
    label = "TillDone",
    description = "Your task list. Before any other tool, add tasks and toggle one to in progress; "
      .. "other tools are refused while no task is in progress. Actions: new-list (text: title), "
      .. "add (text; one task per line), toggle (id: todo → inprogress → done → todo), "
      .. "remove (id), update (id, text), list, clear.",
    promptSnippet = "tilldone: keep a task list; a task must be in progress before other tools run",
    parameters = {
      type = "object",
      properties = {
        action = { type = "string", enum = { "new-list", "add", "toggle", "remove", "update", "list", "clear" } },
        text = { type = "string", description = "Task text, or the list title for new-list" },
        id = { type = "integer", description = "Task id" },
      },
      required = { "action" },
    },
    execute = function(_, params, _, _, ctx)
      local run = ACTIONS[params.action]
      if not run then error(tr("tilldone.unknown-action", { action = tostring(params.action) })) end
      local message = run(params)
      if params.action ~= "list" and #tasks > 0 then message = message .. "\n\n" .. listing() end
      ui_ctx = ctx or ui_ctx
      refresh()
      return {
        content = { { type = "text", text = message } },
        details = { action = params.action, tasks = tasks, nextId = next_id, title = title },
      }
    end,
    renderCall = function(args, theme)
      local action = args.action and tr("tilldone.action." .. args.action) or ""
      local what = action .. (args.id and (" #" .. args.id) or "") .. (args.text and (" " .. args.text) or "")
      return ui.Text(theme.fg("toolTitle", theme.bold("tilldone ")) .. theme.fg("muted", what), 0, 0)
    end,
    renderResult = function(result, options, theme)
      local list = (result.details or {}).tasks or {}
      local done = 0
      for _, t in ipairs(list) do if t.status == "done" then done = done + 1 end end
      local text = theme.fg("success", "✓ ") .. tr("tilldone.progress", { done = done, count = #list })
      if options.expanded then
        for _, t in ipairs(list) do
          text = text .. "\n" .. ICON[t.status] .. " #" .. t.id .. " " .. t.text
        end
      end
      return ui.Text(text, 0, 0)
    end,
  })

  pi.on("tool_call", function(event)
    if event.toolName == TOOL then return nil end
    if #tasks == 0 then
      return {
        block = true,
        reason = tr("tilldone.block.empty"),
      }
    end
    if not current() then
      return {
        block = true,
        reason = tr("tilldone.block.idle"),
      }
    end
    return nil
  end)

  -- Seed flow 1: when the agent stops with tasks still open, remind it (once per
  -- prompt) and start another turn.
  local nudged = false
  pi.on("input", function()
    nudged = false
    return nil
  end)
  pi.on("agent_end", function()
    local open = {}
    for _, t in ipairs(tasks) do
      if t.status ~= "done" then
        open[#open + 1] = string.format("%s #%d [%s] %s", ICON[t.status], t.id, tr("tilldone.state." .. t.status), t.text)
      end
    end
    if #open == 0 or nudged then return end
    nudged = true
    pi.sendMessage({
      customType = "tilldone-nudge",
      content = tr("tilldone.nudge", { count = #open }) .. "\n\n" .. table.concat(open, "\n"),
      display = true,
      details = { open = #open },
    }, { triggerTurn = true })
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "$extension" } } },
  setup = setup,
}
