-- Timed dialogs with a live countdown in the title:
--   /timed         a confirm that answers "no" by itself after 5 seconds
--   /timed-select  a select that gives up after 10 seconds
--   /timed-signal  a confirm that closes after 5 seconds and says whether time ran out
--
--   pi -e extensions/examples/timed-confirm.lua

local function setup(pi)
  local QUESTION = "This dialog will auto-cancel in 5 seconds. Confirm?"

  pi.registerCommand("timed", {
    description = "Show a timed confirmation dialog (auto-cancels in 5s with countdown)",
    handler = function(_, ctx)
      local confirmed = ctx.ui.confirm("Timed Confirmation", QUESTION, { timeout = 5000 })
      ctx.ui.notify(confirmed and "Confirmed by user!" or "Cancelled or timed out", "info")
    end,
  })

  pi.registerCommand("timed-select", {
    description = "Show a timed select dialog (auto-cancels in 10s with countdown)",
    handler = function(_, ctx)
      local choice = ctx.ui.select("Pick an option", { "Option A", "Option B", "Option C" }, { timeout = 10000 })
      if choice then
        ctx.ui.notify("Selected: " .. choice, "info")
      else
        ctx.ui.notify("Selection cancelled or timed out", "info")
      end
    end,
  })

  -- Lua has no AbortController: the clock tells a timeout from the user's "no".
  pi.registerCommand("timed-signal", {
    description = "Show a timed confirm using AbortSignal (manual approach)",
    handler = function(_, ctx)
      local started = os.time()
      ctx.ui.notify("Dialog will auto-cancel in 5 seconds...", "info")
      local confirmed = ctx.ui.confirm("Timed Confirmation", QUESTION, { timeout = 5000 })
      if confirmed then
        ctx.ui.notify("Confirmed by user!", "info")
      elseif os.time() - started >= 5 then
        ctx.ui.notify("Dialog timed out (auto-cancelled)", "warning")
      else
        ctx.ui.notify("Cancelled by user", "info")
      end
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
