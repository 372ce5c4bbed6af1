-- A `todo` tool the model can use, a widget listing the todos above the editor,
-- and state rebuilt from the session branch (so /tree and /resume show the right list).
-- Run: pi -e extensions/examples/todo.lua
local function setup(pi)
  local ui = require("pi.ui")
  local todos, next_id = {}, 1
  local widget_ctx

  local function show()
    if not widget_ctx then return end
    if #todos == 0 then
      widget_ctx.ui.setWidget("todo", nil)
      return
    end
    widget_ctx.ui.setWidget("todo", function(tui, theme)
      return {
        render = function(width)
          local lines = { theme.fg("accent", "Todos") }
          for _, t in ipairs(todos) do
            local mark = t.done and theme.fg("success", "✓") or "○"
            lines[#lines + 1] = ui.truncateToWidth(mark .. " #" .. t.id .. " " .. t.text, width)
          end
          return lines
        end,
      }
    end)
  end

  -- The latest todo tool result on the branch holds the whole list.
  local function rebuild(ctx)
    todos, next_id = {}, 1
    for _, entry in ipairs(ctx.sessionManager.getBranch()) do
      local m = entry.type == "message" and entry.message
      if m and m.role == "toolResult" and m.toolName == "todo" and m.details then
        todos = m.details.todos or {}
        next_id = m.details.nextId or (#todos + 1)
      end
    end
    widget_ctx = ctx
    show()
  end

  pi.on("session_start", function(_, ctx) rebuild(ctx) end)
  pi.on("session_tree", function(_, ctx) rebuild(ctx) end)

  pi.registerTool({
    name = "todo",
    label = "Todo",
    description = "Manage a todo list. Actions: list, add (text), toggle (id), clear.",
    parameters = {
      type = "object",
      properties = {
        action = { type = "string", enum = { "list", "add", "toggle", "clear" } },
        text = { type = "string" },
        id = { type = "integer" },
      },
      required = { "action" },
    },
    execute = function(_, params, _, _, ctx)
      local message
      if params.action == "add" then
        todos[#todos + 1] = { id = next_id, text = params.text or "", done = false }
        message = "Added #" .. next_id
        next_id = next_id + 1
      elseif params.action == "toggle" then
        message = "No todo #" .. tostring(params.id)
        for _, t in ipairs(todos) do
          if t.id == params.id then
            t.done = not t.done
            message = "Toggled #" .. t.id
          end
        end
      elseif params.action == "clear" then
        todos = {}
        message = "Cleared"
      else
        local parts = {}
        for _, t in ipairs(todos) do
          parts[#parts + 1] = (t.done and "[x] " or "[ ] ") .. "#" .. t.id .. " " .. t.text
        end
        message = #parts > 0 and table.concat(parts, "\n") or "No todos"
      end
      widget_ctx = ctx or widget_ctx
      show()
      return {
        content = { { type = "text", text = message } },
        details = { todos = todos, nextId = next_id, action = params.action },
      }
    end,
    renderCall = function(args, theme)
      local what = args.action .. (args.text and (" " .. args.text) or "") .. (args.id and (" #" .. args.id) or "")
      return ui.Text(theme.bold("todo ") .. theme.fg("muted", what), 0, 0)
    end,
    renderResult = function(result, options, theme)
      local details = result.details or {}
      local count = #(details.todos or {})
      local text = theme.fg("success", "✓ ") .. count .. " todo" .. (count == 1 and "" or "s")
      if options.expanded then
        text = text .. "\n" .. ((result.content or {})[1] or {}).text
      end
      return ui.Text(text, 0, 0)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
