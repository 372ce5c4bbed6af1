-- Talks over pi.events, the bus extensions share. /emit [message] sends a
-- my:notification event; the listener below shows whatever arrives.
--
--   pi -e extensions/examples/event-bus.lua
local function setup(pi)
  local current -- the ctx of the running session, for notifications

  pi.on("session_start", function(_, ctx)
    current = ctx
  end)

  pi.events.on("my:notification", function(data)
    if current then
      current.ui.notify(string.format("Event from %s: %s", data.from, data.message), "info")
    end
  end)

  pi.registerCommand("emit", {
    description = "Emit my:notification event (usage: /emit message)",
    handler = function(args)
      local message = args:match("^%s*(.-)%s*$")
      if message == "" then message = "hello" end
      pi.events.emit("my:notification", { message = message, from = "/emit command" })
    end,
  })

  pi.on("session_start", function()
    pi.events.emit("my:notification", { message = "Session started", from = "event-bus-example" })
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
