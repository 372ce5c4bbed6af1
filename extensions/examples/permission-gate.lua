-- Permission gate: asks before dangerous bash commands (rm -rf, sudo,
-- chmod/chown 777, mkfs, dd to a device). "No" blocks the tool call and the
-- model is told why. Without a UI (print or json mode) such commands are
-- blocked outright.
--
--   pi -e extensions/examples/permission-gate.lua

local DANGEROUS = {
  { pattern = "rm%s+%-[%a]*r[%a]*f", label = "rm -rf" },
  { pattern = "rm%s+%-[%a]*f[%a]*r", label = "rm -rf" },
  { pattern = "%f[%w]sudo%s", label = "sudo" },
  { pattern = "chmod%s+%-?R?%s*777", label = "chmod 777" },
  { pattern = "chown%s+%-R", label = "chown -R" },
  { pattern = "%f[%w]mkfs", label = "mkfs" },
  { pattern = "%f[%w]dd%s.*of=/dev/", label = "dd to a device" },
}

local function danger(command)
  for _, d in ipairs(DANGEROUS) do
    if command:find(d.pattern) then
      return d.label
    end
  end
  return nil
end

local function setup(pi)
  pi.on("tool_call", function(event, ctx)
    if event.toolName ~= "bash" then
      return nil
    end
    local command = event.input.command or ""
    local label = danger(command)
    if not label then
      return nil
    end
    if not ctx.hasUI then
      return { block = true, reason = "Dangerous command (" .. label .. ") blocked: no UI to confirm it" }
    end
    local allowed = ctx.ui.confirm("Dangerous command: " .. label, command .. "\n\nAllow it?")
    if not allowed then
      ctx.ui.notify("Blocked: " .. command, "warning")
      return { block = true, reason = "Blocked by user: the user declined to run `" .. command .. "`" }
    end
    return nil
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
