-- Each playground extension opens in its own theme and sets the terminal title
-- to "π - <name>". When several are stacked, the first one given with -e wins.
local M = {}

--- Default theme of each playground extension (the themes shipped with pi).
M.THEMES = {
  ["agent-chain"] = "midnight-ocean",
  ["agent-team"] = "dracula",
  ["cross-agent"] = "ocean-breeze",
  ["damage-control"] = "gruvbox",
  minimal = "synthwave",
  ["pi-pi"] = "rose-pine",
  ["pure-focus"] = "everforest",
  ["purpose-gate"] = "tokyo-night",
  ["session-replay"] = "catppuccin-mocha",
  ["subagent-widget"] = "cyberpunk",
  ["system-select"] = "catppuccin-mocha",
  ["theme-cycler"] = "synthwave",
  tilldone = "everforest",
  ["tool-counter"] = "synthwave",
  ["tool-counter-widget"] = "synthwave",
}

--- The theme for extensions missing from the map.
M.FALLBACK = "synthwave"

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
    local result = ctx.ui.setTheme(M.THEMES[name] or M.FALLBACK)
    if result and result.success == false then ctx.ui.setTheme(M.FALLBACK) end
  end)
end

return M
