-- Timed confirm: `/timed-confirm [ms]` asks a question that answers itself
-- "no" when the time runs out (the seconds left show in the title), then a
-- timed select that falls back to nil.
--
--   pi -e extensions/examples/timed-confirm.lua

return function(pi)
  pi.registerCommand("timed-confirm", {
    description = "Ask a yes/no question that times out",
    handler = function(args, ctx)
      local ms = tonumber(args) or 5000
      local ok = ctx.ui.confirm("Timed confirmation", "Answer before the time runs out.", { timeout = ms })
      ctx.ui.notify(ok and "Confirmed" or "Not confirmed (declined or timed out)", ok and "success" or "info")
      local pick = ctx.ui.select("Pick a colour", { "red", "green", "blue" }, { timeout = ms })
      ctx.ui.notify("Picked: " .. (pick or "nothing"), "info")
    end,
  })
end
