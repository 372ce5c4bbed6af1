-- Builds on pi's own file checkpoints (docs/checkpoints.md) instead of keeping git
-- stashes: pi already keeps the files as they were before each prompt's changes,
-- without touching the git repository. When you fork the session from an earlier
-- message, this offers to put the code back the way it was before that message.
-- pi's own `/fork` asks the same in the terminal; this shows how an extension does it
-- with `ctx.checkpoints` (for instance under a front end of its own, over RPC).
--
--   pi -e extensions/examples/git-checkpoint.lua
local function setup(pi)
  -- A run changed files: show how many in the footer.
  pi.on("checkpoint", function(event, ctx)
    ctx.ui.setStatus("git-checkpoint", ("checkpoint: %d file(s)"):format(#event.files))
  end)

  pi.on("session_before_fork", function(event, ctx)
    -- Newest first: the last one of the message is the checkpoint made before its run.
    local target
    for _, cp in ipairs(ctx.checkpoints.list()) do
      if cp.entryId == event.entryId then target = cp end
    end
    -- pi's own /fork dialog already asked about the files (event.fileChoice is then
    -- "restore" or "keep"): do not ask twice.
    if not target or not ctx.hasUI or event.fileChoice then return end
    local choice = ctx.ui.select("Restore code state?", {
      "Yes, restore code to that point",
      "No, keep current code",
    })
    if choice and choice:find("^Yes") then
      -- Files changed since by someone else are kept (pass overwrite = true to replace them).
      local result = ctx.checkpoints.restore(target.id, { code = true, conversation = false })
      ctx.ui.notify(("Code restored to checkpoint (%d file(s), %d kept)"):format(
        #result.restored, #result.kept), "info")
    end
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
