-- /handoff <goal> turns the conversation into a focused starting prompt for a
-- new session: the model writes it, you edit it, and it waits in the editor
-- of a fresh session.
--
--   pi -e extensions/examples/handoff.lua
--   /handoff now implement this for teams as well
local SYSTEM_PROMPT = [=[You are a context transfer assistant. Given a conversation history and the user's goal for a new thread, generate a focused prompt that:

1. Summarizes relevant context from the conversation (decisions made, approaches taken, key findings)
2. Lists any relevant files that were discussed or modified
3. Clearly states the next task based on the user's goal
4. Is self-contained - the new thread should be able to proceed without the old conversation

Format your response as a prompt the user can send to start the new thread. Be concise but include all necessary context. Do not include any preamble like "Here's the prompt" - just output the prompt itself.

Example output format:
## Context
We've been working on X. Key decisions:
- Decision 1
- Decision 2

Files involved:
- path/to/file1.ts
- path/to/file2.ts

## Task
[Clear description of what to do next based on user's goal]]=]

-- The entries that still count: after a compaction, its summary and what it kept.
local function live_entries(branch)
  local last
  for i = #branch, 1, -1 do
    if branch[i].type == "compaction" then last = i; break end
  end
  if not last then return branch end
  local kept = { branch[last] }
  local from
  for i = 1, last - 1 do
    if branch[i].id == branch[last].firstKeptEntryId then from = i; break end
  end
  if from then for i = from, last - 1 do kept[#kept + 1] = branch[i] end end
  for i = last + 1, #branch do kept[#kept + 1] = branch[i] end
  return kept
end

local function serialize(pi, entries)
  local parts = {}
  for _, entry in ipairs(entries) do
    if entry.type == "compaction" then
      parts[#parts + 1] = "[Summary of earlier conversation]: " .. tostring(entry.summary)
    elseif entry.type == "message" then
      local m = entry.message
      local text, calls = {}, {}
      if type(m.content) == "string" then
        text[1] = m.content
      else
        for _, block in ipairs(m.content or {}) do
          if block.type == "text" then
            text[#text + 1] = block.text
          elseif block.type == "toolCall" then
            calls[#calls + 1] = block.name .. "(" .. pi.json.encode(block.arguments or {}) .. ")"
          end
        end
      end
      local label = ({ user = "[User]", assistant = "[Assistant]", toolResult = "[Tool result]" })[m.role]
      if label and #text > 0 then parts[#parts + 1] = label .. ": " .. table.concat(text, "\n") end
      if #calls > 0 then parts[#parts + 1] = "[Assistant tool calls]: " .. table.concat(calls, "; ") end
    end
  end
  return table.concat(parts, "\n\n")
end

local function setup(pi)
  local ui = require("pi.ui")

  pi.registerCommand("handoff", {
    description = "Transfer context to a new focused session",
    handler = function(args, ctx)
      if not ctx.hasUI then return ctx.ui.notify("handoff requires interactive mode", "error") end
      if not ctx.model then return ctx.ui.notify("No model selected", "error") end
      local goal = args:match("^%s*(.-)%s*$")
      if goal == "" then return ctx.ui.notify("Usage: /handoff <goal for new thread>", "error") end
      local history = serialize(pi, live_entries(ctx.sessionManager.getBranch()))
      if history == "" then return ctx.ui.notify("No conversation to hand off", "error") end

      local finished, result = false, nil
      local close -- done() of the loader, while it shows
      local out = {}
      local proc = pi.spawn(pi.execPath, {
        "-p", "--no-session", "--no-tools", "--no-extensions", "--no-skills", "--no-prompt-templates",
        "--no-context-files", "--no-approve", "--offline",
        "--model", ctx.model.provider .. "/" .. ctx.model.id, "--system-prompt", SYSTEM_PROMPT,
      }, {
        stdin = "## Conversation History\n\n" .. history .. "\n\n## User's Goal for New Thread\n\n" .. goal,
        onStdout = function(line) out[#out + 1] = line end,
        onExit = function(code, killed)
          finished = true
          result = (code == 0 and not killed) and (table.concat(out, "\n"):gsub("%s+$", "")) or nil
          if close then close(result ~= nil) end
        end,
      })

      local shown = ctx.ui.custom(function(tui, theme, _, done)
        close = done
        if finished then done(result ~= nil) end
        local loader = ui.Loader(tui, function(s) return theme.fg("accent", s) end,
          function(s) return theme.fg("muted", s) end, "Generating handoff prompt...")
        local box = ui.Container()
        box.addChild(ui.DynamicBorder(function(s) return theme.fg("border", s) end))
        box.addChild(loader)
        box.addChild(ui.Text(theme.fg("dim", "Esc to cancel"), 1, 0))
        box.addChild(ui.DynamicBorder(function(s) return theme.fg("border", s) end))
        return {
          render = function(width) return box.render(width) end,
          handleInput = function(key)
            if key == "escape" then proc.kill(); done(false) end
          end,
          dispose = function() loader.stop() end,
        }
      end)
      close = nil
      -- Front ends without components return at once: wait for the answer here.
      if shown == nil and not finished then
        proc.wait()
        while not finished do pi.sleep(10) end -- onExit comes right after
      end
      if shown == false or not result then return ctx.ui.notify("Cancelled", "info") end

      local edited = ctx.ui.editor("Edit handoff prompt", result)
      if edited == nil then return ctx.ui.notify("Cancelled", "info") end
      -- The new session's own ctx does the work there; this one belongs to the old session.
      local switched = ctx.newSession({
        parentSession = ctx.sessionManager.getSessionFile(),
        withSession = function(new_ctx)
          new_ctx.ui.setEditorText(edited)
          new_ctx.ui.notify("Handoff ready. Submit when ready.", "info")
        end,
      })
      if switched and switched.cancelled then ctx.ui.notify("New session cancelled", "info") end
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "$pi" } },
  setup = setup,
}
