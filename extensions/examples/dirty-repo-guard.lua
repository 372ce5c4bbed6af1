-- Stops /new, /resume and /fork while the git repository has uncommitted
-- changes, unless you say so (without a UI they are always stopped).
--
--   pi -e extensions/examples/dirty-repo-guard.lua
local function setup(pi)
  local function guard(ctx, action)
    local status = pi.exec("git", { "status", "--porcelain" })
    if status.code ~= 0 then return end -- not a repository
    local changed = 0
    for line in status.stdout:gmatch("[^\n]+") do
      if line:find("%S") then changed = changed + 1 end
    end
    if changed == 0 then return end
    if not ctx.hasUI then return { cancel = true } end

    local choice = ctx.ui.select(
      string.format("You have %d uncommitted file(s). %s anyway?", changed, action),
      { "Yes, proceed anyway", "No, let me commit first" }
    )
    if choice ~= "Yes, proceed anyway" then
      ctx.ui.notify("Commit your changes first", "warning")
      return { cancel = true }
    end
  end

  pi.on("session_before_switch", function(event, ctx)
    return guard(ctx, event.reason == "new" and "new session" or "switch session")
  end)

  pi.on("session_before_fork", function(_, ctx)
    return guard(ctx, "fork")
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "git" } },
  setup = setup,
}
