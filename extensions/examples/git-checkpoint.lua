-- Takes a git stash snapshot of the working tree at the start of every turn;
-- when you fork the session from an earlier message, offers to put the code
-- back the way it was at that point.
--
--   pi -e extensions/examples/git-checkpoint.lua
return function(pi)
  local checkpoints = {} -- entry id -> stash commit
  local current_entry

  pi.on("tool_result", function(_, ctx)
    current_entry = ctx.sessionManager.getLeafId() or current_entry
  end)

  pi.on("turn_start", function()
    local ref = pi.exec("git", { "stash", "create" }).stdout:match("^%s*(.-)%s*$")
    if ref ~= "" and current_entry then checkpoints[current_entry] = ref end
  end)

  pi.on("session_before_fork", function(event, ctx)
    local ref = checkpoints[event.entryId]
    if not ref or not ctx.hasUI then return end
    local choice = ctx.ui.select("Restore code state?", {
      "Yes, restore code to that point",
      "No, keep current code",
    })
    if choice and choice:find("^Yes") then
      pi.exec("git", { "stash", "apply", ref })
      ctx.ui.notify("Code restored to checkpoint", "info")
    end
  end)

  pi.on("agent_end", function()
    checkpoints = {}
  end)
end
