-- When pi exits with uncommitted changes in a git repository, commits them all
-- with a message taken from the last assistant reply.
--
--   pi -e extensions/examples/auto-commit-on-exit.lua
local function last_assistant_text(entries)
  for i = #entries, 1, -1 do
    local entry = entries[i]
    if entry.type == "message" and entry.message.role == "assistant" then
      local parts = {}
      if type(entry.message.content) == "table" then
        for _, block in ipairs(entry.message.content) do
          if block.type == "text" then parts[#parts + 1] = block.text end
        end
      end
      return table.concat(parts, "\n")
    end
  end
  return ""
end

local function setup(pi)
  pi.on("session_shutdown", function(_, ctx)
    local status = pi.exec("git", { "status", "--porcelain" })
    if status.code ~= 0 or not status.stdout:find("%S") then return end

    local first = last_assistant_text(ctx.sessionManager.getEntries()):match("^[^\n]*")
    if first == "" then first = "Work in progress" end
    local short = utf8.len(first) and utf8.len(first) > 50 and first:sub(1, utf8.offset(first, 51) - 1) .. "..." or first
    local message = "[pi] " .. short

    pi.exec("git", { "add", "-A" })
    local commit = pi.exec("git", { "commit", "-m", message })
    if commit.code == 0 and ctx.hasUI then
      ctx.ui.notify("Auto-committed: " .. message, "info")
    end
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "git" } },
  setup = setup,
}
