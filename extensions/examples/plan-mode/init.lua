-- Plan mode: read-only exploration first, then execution with progress.
--
--   /plan (or Ctrl+Alt+P, or --plan) switches the session to the read-only
--   sandbox: every tool still runs, but nothing can change a file (bash is
--   confined by the kernel, edit and write are refused). On a kernel that
--   cannot confine commands, plan mode falls back to read-only tools and an
--   allowlist of bash commands that change nothing.
--   The model writes a numbered plan under "Plan:"; you then execute it,
--   stay, or refine it. While executing, [DONE:n] in replies ticks steps off
--   in a widget, and /todos lists them.
--
--   pi -e extensions/examples/plan-mode
local utils = require("utils")

local PLAN_TOOLS = { "read", "bash", "grep", "find", "ls", "questionnaire" }
local NORMAL_TOOLS = { "read", "bash", "edit", "write" }

local PLAN_CONTEXT = [[[PLAN MODE ACTIVE]
You are in plan mode - a read-only exploration mode for safe code analysis.

Restrictions:
%s

Ask clarifying questions using the questionnaire tool.
Use brave-search skill via bash for web research.

Create a detailed numbered plan under a "Plan:" header:

Plan:
1. First step description
2. Second step description
...

Do NOT attempt to make changes - just describe what you would do.]]

local SANDBOX_RESTRICTIONS = [[- The session runs in the read-only sandbox: no file can be changed
- edit and write are refused; bash commands run but cannot write files]]
local TOOL_LIST_RESTRICTIONS = [[- You can only use: read, bash, grep, find, ls, questionnaire
- You CANNOT use: edit, write (file modifications are disabled)
- Bash is restricted to an allowlist of read-only commands]]

local function text_of(message)
  if type(message) ~= "table" or message.role ~= "assistant" or type(message.content) ~= "table" then return nil end
  local parts = {}
  for _, block in ipairs(message.content) do
    if block.type == "text" then parts[#parts + 1] = block.text end
  end
  return table.concat(parts, "\n")
end

local function mentions_plan_mode(message)
  if message.role ~= "user" then return false end
  if type(message.content) == "string" then return message.content:find("[PLAN MODE ACTIVE]", 1, true) ~= nil end
  for _, block in ipairs(message.content or {}) do
    if block.type == "text" and (block.text or ""):find("[PLAN MODE ACTIVE]", 1, true) then return true end
  end
  return false
end

local function setup(pi)
  local planning, executing = false, false
  local todos = {}
  -- The sandbox mode to go back to when plan mode ends; nil while plan mode
  -- is not in force through the sandbox (off, or the tool-list fallback).
  local mode_before = nil

  -- Put plan mode's restrictions in force: the read-only sandbox when this
  -- kernel can enforce it, otherwise the read-only tool list.
  local function restrict(ctx)
    if mode_before then return end
    local previous = pi.getSandbox().mode
    local ok, why = pi.setSandbox("read-only")
    if ok then
      mode_before = previous
    else
      pi.setActiveTools(PLAN_TOOLS)
      if ctx then ctx.ui.notify("Read-only sandbox unavailable (" .. tostring(why) .. "); using read-only tools", "warning") end
    end
  end

  -- Lift plan mode's restrictions.
  local function unrestrict()
    if mode_before then
      pi.setSandbox(mode_before)
      mode_before = nil
    else
      pi.setActiveTools(NORMAL_TOOLS)
    end
  end

  pi.registerFlag("plan", { type = "boolean", default = false, description = "Start in plan mode (read-only exploration)" })

  local function update(ctx)
    local theme = ctx.ui.theme
    local done = 0
    for _, item in ipairs(todos) do if item.completed then done = done + 1 end end
    if executing and #todos > 0 then
      ctx.ui.setStatus("plan-mode", theme.fg("accent", string.format("📋 %d/%d", done, #todos)))
      local lines = {}
      for i, item in ipairs(todos) do
        lines[i] = item.completed and (theme.fg("success", "☑ ") .. theme.fg("muted", theme.strikethrough(item.text)))
          or (theme.fg("muted", "☐ ") .. item.text)
      end
      ctx.ui.setWidget("plan-todos", lines)
    else
      ctx.ui.setStatus("plan-mode", planning and theme.fg("warning", "⏸ plan") or nil)
      ctx.ui.setWidget("plan-todos", nil)
    end
  end

  local function toggle(ctx)
    planning = not planning
    executing, todos = false, {}
    if planning then
      restrict(ctx)
      ctx.ui.notify(mode_before and "Plan mode enabled. Sandbox: read-only"
        or ("Plan mode enabled. Tools: " .. table.concat(PLAN_TOOLS, ", ")))
    else
      unrestrict()
      ctx.ui.notify("Plan mode disabled. Full access restored.")
    end
    update(ctx)
  end

  local function persist()
    pi.appendEntry("plan-mode", { enabled = planning, todos = todos, executing = executing })
  end

  pi.registerCommand("plan", { description = "Toggle plan mode (read-only exploration)", handler = function(_, ctx) toggle(ctx) end })
  pi.registerShortcut("ctrl+alt+p", { description = "Toggle plan mode", handler = toggle })

  pi.registerCommand("todos", {
    description = "Show current plan todo list",
    handler = function(_, ctx)
      if #todos == 0 then return ctx.ui.notify("No todos. Create a plan first with /plan", "info") end
      local lines = {}
      for i, item in ipairs(todos) do lines[i] = string.format("%d. %s %s", i, item.completed and "✓" or "○", item.text) end
      ctx.ui.notify("Plan Progress:\n" .. table.concat(lines, "\n"), "info")
    end,
  })

  pi.on("tool_call", function(event)
    -- The sandbox confines bash itself; the allowlist is the fallback's.
    if not planning or mode_before or event.toolName ~= "bash" then return end
    local command = event.input.command or ""
    if not utils.isSafeCommand(command) then
      return {
        block = true,
        reason = "Plan mode: command blocked (not allowlisted). Use /plan to disable plan mode first.\nCommand: " .. command,
      }
    end
  end)

  -- Outside plan mode the model should not see old plan-mode instructions.
  pi.on("context", function(event)
    if planning then return end
    local kept = {}
    for _, m in ipairs(event.messages) do
      if m.customType ~= "plan-mode-context" and not mentions_plan_mode(m) then kept[#kept + 1] = m end
    end
    return { messages = kept }
  end)

  pi.on("before_agent_start", function()
    if planning then
      local restrictions = mode_before and SANDBOX_RESTRICTIONS or TOOL_LIST_RESTRICTIONS
      return { message = { customType = "plan-mode-context", content = PLAN_CONTEXT:format(restrictions), display = false } }
    end
    if executing and #todos > 0 then
      local remaining = {}
      for _, item in ipairs(todos) do
        if not item.completed then remaining[#remaining + 1] = item.step .. ". " .. item.text end
      end
      return {
        message = {
          customType = "plan-execution-context",
          content = "[EXECUTING PLAN - Full tool access enabled]\n\nRemaining steps:\n" .. table.concat(remaining, "\n")
            .. "\n\nExecute each step in order.\nAfter completing a step, include a [DONE:n] tag in your response.",
          display = false,
        },
      }
    end
  end)

  pi.on("turn_end", function(event, ctx)
    if not executing or #todos == 0 then return end
    local text = text_of(event.message)
    if not text then return end
    if utils.markCompletedSteps(text, todos) > 0 then update(ctx) end
    persist()
  end)

  pi.on("agent_end", function(event, ctx)
    if executing and #todos > 0 then
      local all_done = true
      for _, item in ipairs(todos) do all_done = all_done and item.completed end
      if all_done then
        local list = {}
        for i, item in ipairs(todos) do list[i] = "~~" .. item.text .. "~~" end
        pi.sendMessage({ customType = "plan-complete", content = "**Plan Complete!** ✓\n\n" .. table.concat(list, "\n"), display = true },
          { triggerTurn = false })
        executing, todos = false, {}
        update(ctx)
        persist()
      end
      return
    end
    if not planning or not ctx.hasUI then return end

    for i = #(event.messages or {}), 1, -1 do
      local text = text_of(event.messages[i])
      if text then
        local found = utils.extractTodoItems(text)
        if #found > 0 then todos = found end
        break
      end
    end
    if #todos > 0 then
      local list = {}
      for i, item in ipairs(todos) do list[i] = i .. ". ☐ " .. item.text end
      pi.sendMessage({ customType = "plan-todo-list", content = string.format("**Plan Steps (%d):**\n\n%s", #todos, table.concat(list, "\n")),
        display = true }, { triggerTurn = false })
    end

    local choice = ctx.ui.select("Plan mode - what next?", {
      #todos > 0 and "Execute the plan (track progress)" or "Execute the plan",
      "Stay in plan mode",
      "Refine the plan",
    })
    if choice and choice:find("^Execute") then
      planning, executing = false, #todos > 0
      unrestrict()
      update(ctx)
      pi.sendMessage({
        customType = "plan-mode-execute",
        content = #todos > 0 and ("Execute the plan. Start with: " .. todos[1].text) or "Execute the plan you just created.",
        display = true,
      }, { triggerTurn = true })
    elseif choice == "Refine the plan" then
      local refinement = ctx.ui.editor("Refine the plan:", "")
      refinement = refinement and refinement:match("^%s*(.-)%s*$")
      if refinement and refinement ~= "" then pi.sendUserMessage(refinement) end
    end
  end)

  -- Leave the sandbox as it was before plan mode for whatever comes next (a
  -- reload or another session applies plan mode again from its own state).
  pi.on("session_shutdown", function()
    if mode_before then unrestrict() end
  end)

  pi.on("session_start", function(_, ctx)
    if pi.getFlag("plan") == true then planning = true end
    local entries = ctx.sessionManager.getEntries()
    local saved
    for _, entry in ipairs(entries) do
      if entry.type == "custom" and entry.customType == "plan-mode" and entry.data then saved = entry.data end
    end
    if saved then
      if saved.enabled ~= nil then planning = saved.enabled end
      todos = saved.todos or todos
      if saved.executing ~= nil then executing = saved.executing end
    end
    -- Resuming an execution: count [DONE:n] in replies since it started.
    if saved and executing and #todos > 0 then
      local start = 0
      for i = #entries, 1, -1 do
        if entries[i].customType == "plan-mode-execute" then start = i; break end
      end
      local texts = {}
      for i = start + 1, #entries do
        local text = entries[i].type == "message" and text_of(entries[i].message)
        if text then texts[#texts + 1] = text end
      end
      utils.markCompletedSteps(table.concat(texts, "\n"), todos)
    end
    if planning then restrict(ctx) end
    update(ctx)
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
