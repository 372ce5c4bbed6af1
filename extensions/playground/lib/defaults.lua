-- Each playground extension opens in its own theme and sets the terminal title
-- to "π - <name>". When several are stacked, the first one given with -e wins.
local M = {}

--- Default theme of each playground extension (built-in themes).
M.THEMES = {
  ["pure-focus"] = "moss",
  minimal = "nightshade",
  ["tool-counter"] = "nightshade",
  ["tool-counter-widget"] = "nightshade",
  ["purpose-gate"] = "glacier",
  tilldone = "moss",
  ["session-replay"] = "ember",
  ["theme-cycler"] = "nightshade",
}

local CHANNEL = "playground/defaults-owner"

--- Apply `name`'s theme and title on every session_start, unless another
--- playground extension loaded earlier already did.
function M.apply(pi, name)
  local owner, other = false, false
  pi.events.on(CHANNEL, function(from)
    if from ~= name then other = true end
  end)
  pi.on("session_start", function(_, ctx)
    if not ctx.hasUI or (other and not owner) then return end
    owner = true
    pi.events.emit(CHANNEL, name)
    ctx.ui.setTitle("π - " .. name)
    local theme = M.THEMES[name]
    if theme then ctx.ui.setTheme(theme) end
  end)
end

return M
