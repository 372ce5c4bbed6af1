-- Registers tools after start-up: echo_session when the session starts, and
-- any echo tool you name with /add-echo-tool <name>.
--
--   pi -e extensions/examples/dynamic-tools.lua
local function setup(pi)
  local registered = {}

  local function register_echo(name, label, prefix)
    if registered[name] then return false end
    registered[name] = true
    pi.registerTool({
      name = name,
      label = label,
      description = "Echo a message with prefix: " .. prefix,
      promptSnippet = "Echo back user-provided text with " .. prefix:match("^%s*(.-)%s*$") .. " prefix",
      promptGuidelines = { "Use echo_session when the user asks for exact echo output." },
      parameters = {
        type = "object",
        properties = { message = { type = "string", description = "Message to echo" } },
        required = { "message" },
      },
      execute = function(_, params)
        return {
          content = { { type = "text", text = prefix .. params.message } },
          details = { tool = name, prefix = prefix },
        }
      end,
    })
    return true
  end

  pi.on("session_start", function(_, ctx)
    register_echo("echo_session", "Echo Session", "[session] ")
    ctx.ui.notify("Registered dynamic tool: echo_session", "info")
  end)

  pi.registerCommand("add-echo-tool", {
    description = "Register a new echo tool dynamically: /add-echo-tool <tool_name>",
    handler = function(args, ctx)
      local name = args:match("^%s*(.-)%s*$"):lower()
      if name == "" or not name:match("^[a-z0-9_]+$") then
        ctx.ui.notify("Usage: /add-echo-tool <tool_name> (lowercase, numbers, underscores)", "warning")
        return
      end
      if not register_echo(name, "Echo " .. name, "[" .. name .. "] ") then
        ctx.ui.notify("Tool already registered: " .. name, "warning")
        return
      end
      ctx.ui.notify("Registered dynamic tool: " .. name, "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
