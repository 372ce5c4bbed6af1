-- Theme cycler: Ctrl+X steps forward and Ctrl+Q backward through every theme pi
-- knows; /theme picks one from a list (or /theme <name>). After each switch a
-- swatch of the new theme's colours shows above the editor for a few seconds.
-- Run: pi -e extensions/playground/theme-cycler.lua
local function setup(pi)
  local ui = require("pi.ui")
  require("lib.defaults").apply(pi, "theme-cycler")
  local tr = require("lib.i18n").load(pi)
  local SWATCH_MS = 3000
  local SWATCH = { "accent", "success", "warning", "error", "muted", "dim" }
  local swatch_timer
  local known = {} -- theme names, for /theme completions

  local function names(ctx)
    local list = {}
    for _, t in ipairs(ctx.ui.getAllThemes()) do list[#list + 1] = t.name end
    known = list
    return list
  end

  local function show_swatch(ctx, name)
    ctx.ui.setWidget("theme-swatch", function(_, theme)
      return {
        render = function(width)
          local blocks = {}
          for _, token in ipairs(SWATCH) do blocks[#blocks + 1] = theme.fg(token, "███") end
          return { ui.truncateToWidth(table.concat(blocks, " ") .. "  " .. theme.fg("accent", name), width) }
        end,
      }
    end, { placement = "aboveEditor" })
    if swatch_timer then pi.clearTimeout(swatch_timer) end
    swatch_timer = pi.setTimeout(function()
      swatch_timer = nil
      ctx.ui.setWidget("theme-swatch", nil)
    end, SWATCH_MS)
  end

  local function apply(ctx, name)
    local result = ctx.ui.setTheme(name)
    if not result.success then
      ctx.ui.notify(result.error or tr("theme.cannot", { name = name }), "error")
      return
    end
    ctx.ui.setStatus("theme", ctx.ui.theme.fg("accent", "◐ ") .. name)
    show_swatch(ctx, name)
  end

  local function cycle(ctx, step)
    local list = names(ctx)
    if #list == 0 then return end
    local at = 0
    for i, name in ipairs(list) do
      if name == ctx.ui.theme.name then at = i end
    end
    if at == 0 then at = step > 0 and 0 or 1 end
    apply(ctx, list[(at - 1 + step) % #list + 1])
  end

  pi.on("session_start", function(_, ctx) names(ctx) end)

  pi.registerShortcut("ctrl+x", {
    description = tr("theme.next"),
    handler = function(ctx) cycle(ctx, 1) end,
  })
  pi.registerShortcut("ctrl+q", {
    description = tr("theme.previous"),
    handler = function(ctx) cycle(ctx, -1) end,
  })

  pi.registerCommand("theme", {
    description = tr("theme.cmd"),
    getArgumentCompletions = function(prefix)
      local out = {}
      for _, name in ipairs(known) do
        if name:sub(1, #prefix) == prefix then out[#out + 1] = name end
      end
      return out
    end,
    handler = function(args, ctx)
      local wanted = (args or ""):gsub("^%s+", ""):gsub("%s+$", "")
      if wanted == "" then
        wanted = ctx.ui.select(tr("theme.select", { name = ctx.ui.theme.name }), names(ctx))
        if not wanted then return end
      end
      apply(ctx, wanted)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "$extension" } } },
  setup = setup,
}
