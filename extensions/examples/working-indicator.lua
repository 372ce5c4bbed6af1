-- /working-indicator [dot|pulse|none|spinner|reset] picks the indicator shown
-- while a reply streams; a status slot names the current choice.
--
--   pi -e extensions/examples/working-indicator.lua
local SPINNER = { "⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏" }
local PASTELS = {
  "\27[38;2;255;179;186m", "\27[38;2;255;223;186m", "\27[38;2;255;255;186m",
  "\27[38;2;186;255;201m", "\27[38;2;186;225;255m", "\27[38;2;218;186;255m",
}
local function tint(text, i) return PASTELS[i] .. text .. "\27[39m" end

local MODES = {
  dot = { label = "static dot", indicator = function() return { frames = { tint("●", 1) } } end },
  none = { label = "hidden", indicator = function() return { frames = {} } end },
  pulse = {
    label = "custom pulse",
    indicator = function()
      return { frames = { tint("·", 1), tint("•", 3), tint("●", 5), tint("•", 6) }, intervalMs = 120 }
    end,
  },
  spinner = {
    label = "custom spinner",
    indicator = function()
      local frames = {}
      for i, frame in ipairs(SPINNER) do frames[i] = tint(frame, (i - 1) % #PASTELS + 1) end
      return { frames = frames, intervalMs = 80 }
    end,
  },
  default = { label = "pi default spinner", indicator = function() return nil end },
}

local function setup(pi)
  local mode = "spinner"

  local function apply(ctx)
    local indicator = MODES[mode].indicator()
    if indicator then ctx.ui.setWorkingIndicator(indicator) else ctx.ui.setWorkingIndicator() end
    ctx.ui.setStatus("working-indicator", ctx.ui.theme.fg("dim", "Indicator: " .. MODES[mode].label))
  end

  pi.on("session_start", function(_, ctx) apply(ctx) end)

  pi.registerCommand("working-indicator", {
    description = "Set the streaming working indicator: dot, pulse, none, spinner, or reset.",
    handler = function(args, ctx)
      local wanted = args:match("^%s*(.-)%s*$"):lower()
      if wanted == "" then
        return ctx.ui.notify("Working indicator: " .. MODES[mode].label, "info")
      end
      local choices = { dot = "dot", pulse = "pulse", none = "none", spinner = "spinner", reset = "default" }
      if not choices[wanted] then
        return ctx.ui.notify("Usage: /working-indicator [dot|pulse|none|spinner|reset]", "error")
      end
      mode = choices[wanted]
      apply(ctx)
      ctx.ui.notify("Working indicator set to: " .. MODES[mode].label, "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
