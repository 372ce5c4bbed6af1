-- Uses every ctx.ui call a client speaking pi's RPC protocol can answer:
-- title, widget and status on start, status per turn, a select before
-- dangerous bash, a confirm before /new, and /rpc-input, /rpc-editor and
-- /rpc-prefill for input, editor and setEditorText.
--
--   pi --mode rpc -e extensions/examples/rpc-demo.lua
local function setup(pi)
  local turns = 0

  pi.on("session_start", function(event, ctx)
    ctx.ui.setTitle(event.reason == "new" and "pi RPC Demo (new session)" or "pi RPC Demo")
    ctx.ui.setWidget("rpc-demo", { "--- RPC Extension UI Demo ---", "Loaded and ready." })
    ctx.ui.setStatus("rpc-demo", "Turns: " .. turns)
  end)

  pi.on("turn_start", function(_, ctx)
    turns = turns + 1
    ctx.ui.setStatus("rpc-demo", "Turn " .. turns .. " running...")
  end)

  pi.on("turn_end", function(_, ctx)
    ctx.ui.setStatus("rpc-demo", "Turn " .. turns .. " done")
  end)

  local function dangerous(command)
    local lower = command:lower()
    return lower:find("%f[%w]rm%s+%-rf?") or lower:find("%f[%w]rm%s+%-%-recursive") or lower:find("%f[%w]sudo%f[%W]")
  end

  pi.on("tool_call", function(event, ctx)
    if event.toolName ~= "bash" then return end
    local command = event.input.command or ""
    if not dangerous(command) then return end
    if not ctx.hasUI then return { block = true, reason = "Dangerous command blocked (no UI)" } end
    if ctx.ui.select("Dangerous command: " .. command, { "Allow", "Block" }) ~= "Allow" then
      ctx.ui.notify("Command blocked by user", "warning")
      return { block = true, reason = "Blocked by user" }
    end
    ctx.ui.notify("Command allowed", "info")
  end)

  pi.on("session_before_switch", function(event, ctx)
    if event.reason ~= "new" or not ctx.hasUI then return end
    if not ctx.ui.confirm("Clear session?", "All messages will be lost.") then
      ctx.ui.notify("Clear cancelled", "info")
      return { cancel = true }
    end
  end)

  pi.registerCommand("rpc-input", {
    description = "Prompt for text input (demonstrates ctx.ui.input in RPC)",
    handler = function(_, ctx)
      local value = ctx.ui.input("Enter a value", "type something...")
      ctx.ui.notify(value and value ~= "" and ("You entered: " .. value) or "Input cancelled", "info")
    end,
  })

  pi.registerCommand("rpc-editor", {
    description = "Open multi-line editor (demonstrates ctx.ui.editor in RPC)",
    handler = function(_, ctx)
      local text = ctx.ui.editor("Edit some text", "Line 1\nLine 2\nLine 3")
      if text and text ~= "" then
        local _, breaks = text:gsub("\n", "")
        ctx.ui.notify(string.format("Editor submitted (%d lines)", breaks + 1), "info")
      else
        ctx.ui.notify("Editor cancelled", "info")
      end
    end,
  })

  pi.registerCommand("rpc-prefill", {
    description = "Prefill the input editor (demonstrates ctx.ui.setEditorText in RPC)",
    handler = function(_, ctx)
      ctx.ui.setEditorText("This text was set by the rpc-demo extension.")
      ctx.ui.notify("Editor prefilled", "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
