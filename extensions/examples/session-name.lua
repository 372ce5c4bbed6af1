-- /session-name [name]: name the session (shown in the session picker) or show its name.
--
--   pi -e extensions/examples/session-name.lua
local function setup(pi)
  pi.registerCommand("session-name", {
    description = "Set or show session name (usage: /session-name [new name])",
    handler = function(args, ctx)
      local name = args:match("^%s*(.-)%s*$")
      if name ~= "" then
        pi.setSessionName(name)
        ctx.ui.notify("Session named: " .. name, "info")
        return
      end
      local current = pi.getSessionName()
      ctx.ui.notify(current and ("Session: " .. current) or "No session name set", "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
