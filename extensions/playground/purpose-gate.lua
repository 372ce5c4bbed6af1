-- Purpose gate: nothing reaches the model until you have said what the session is for.
-- Your first message opens a "purpose" question; cancel it and the message is held
-- back (it stays in the editor). The purpose goes into the system prompt of every
-- turn, shows in a widget above the editor and is kept in the session, so /resume
-- remembers it. /purpose changes it.
-- Run: pi -e extensions/playground/purpose-gate.lua
local function setup(pi)
  local ui = require("pi.ui")
  require("lib.defaults").apply(pi, "purpose-gate")
  local i18n = require("lib.i18n")
  local tr = i18n.load(pi)
  local T = i18n.texts(pi, tr, { label = "purpose.label", unset = "purpose.unset" })
  local ENTRY = "purpose-gate"
  local purpose

  local function show(ctx)
    ctx.ui.setWidget("purpose", function(_, theme)
      return {
        render = function(width)
          local line
          if purpose then
            line = theme.fg("accent", "◎ " .. T.label .. "  ") .. theme.fg("success", purpose)
          else
            line = theme.fg("warning", "◎ " .. T.label .. "  ") .. theme.fg("dim", T.unset)
          end
          return { ui.truncateToWidth(line, width) }
        end,
      }
    end, { placement = "aboveEditor" })
  end

  -- The latest purpose entry on the branch wins.
  local function rebuild(ctx)
    purpose = nil
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      if entry.type == "custom" and entry.customType == ENTRY and type(entry.data) == "table" then
        purpose = entry.data.purpose
      end
    end
    show(ctx)
  end

  local function ask(ctx)
    local answer = ctx.ui.input(tr("purpose.question"), tr("purpose.placeholder"))
    answer = answer and answer:gsub("^%s+", ""):gsub("%s+$", "")
    if not answer or answer == "" then return false end
    purpose = answer
    pi.appendEntry(ENTRY, { purpose = purpose })
    show(ctx)
    ctx.ui.notify(tr("purpose.set", { purpose = purpose }), "success")
    return true
  end

  pi.on("session_start", function(_, ctx) rebuild(ctx) end)
  pi.on("session_tree", function(_, ctx) rebuild(ctx) end)

  pi.on("input", function(event, ctx)
    if purpose or not ctx.hasUI or event.source == "extension" then return nil end
    if ask(ctx) then return { action = "continue" } end
    ctx.ui.setEditorText(event.text or "")
    ctx.ui.notify(tr("purpose.first"), "warning")
    return { action = "handled" }
  end)

  pi.on("before_agent_start", function(event)
    if not purpose then return nil end
    return {
      systemPrompt = (event.systemPrompt or "") .. "\n\n## Session purpose\n" .. purpose
        .. "\nKeep every step in service of this purpose. If a request drifts away from it, say so before acting.",
    }
  end)

  pi.registerCommand("purpose", {
    description = tr("purpose.cmd"),
    handler = function(args, ctx)
      local text = (args or ""):gsub("^%s+", ""):gsub("%s+$", "")
      if text ~= "" then
        purpose = text
        pi.appendEntry(ENTRY, { purpose = purpose })
        show(ctx)
        ctx.ui.notify(tr("purpose.set", { purpose = purpose }), "success")
      elseif not ask(ctx) then
        ctx.ui.notify(purpose and tr("purpose.show", { purpose = purpose }) or tr("purpose.none"), "info")
      end
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "$extension" } } },
  setup = setup,
}
