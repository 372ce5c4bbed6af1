-- Named presets of model, thinking level, tools and extra instructions, read
-- from ~/.pi/agent/presets.json and .pi/presets.json (the project's win):
--
--   { "plan": { "provider": "anthropic", "model": "claude-sonnet-4-5",
--               "thinkingLevel": "high", "tools": ["read", "grep", "find", "ls"],
--               "instructions": "Plan only. Do not change files." } }
--
-- Pick one with --preset <name>, /preset [name] or Ctrl+Shift+U (cycles).
--
--   pi -e extensions/examples/preset.lua --preset plan
local DEFAULT_TOOLS = { "read", "bash", "edit", "write" }

local function setup(pi)
  local ui = require("pi.ui")
  local presets = {}
  local active_name, active
  local original -- model, thinking level and tools before the first preset

  pi.registerFlag("preset", { type = "string", description = "Preset configuration to use" })

  local function agent_dir()
    return os.getenv("PI_CODING_AGENT_DIR") or ((os.getenv("HOME") or ".") .. "/.pi/agent")
  end

  local function load_file(path)
    local text = pi.fs.read(path)
    if not text then return {} end
    local ok, value = pcall(pi.json.decode, text)
    if ok and type(value) == "table" then return value end
    pi.log.error("Failed to load presets from " .. path .. ": " .. tostring(value))
    return {}
  end

  local function load(cwd)
    local merged = load_file(agent_dir() .. "/presets.json")
    for name, preset in pairs(load_file(cwd .. "/.pi/presets.json")) do merged[name] = preset end
    return merged
  end

  local function names()
    local list = {}
    for name in pairs(presets) do list[#list + 1] = name end
    table.sort(list)
    return list
  end

  local function describe(preset)
    local parts = {}
    if preset.provider and preset.model then parts[#parts + 1] = preset.provider .. "/" .. preset.model end
    if preset.thinkingLevel then parts[#parts + 1] = "thinking:" .. preset.thinkingLevel end
    if preset.tools then parts[#parts + 1] = "tools:" .. table.concat(preset.tools, ",") end
    if preset.instructions then
      local text = preset.instructions
      if #text > 30 then text = text:sub(1, 27) .. "..." end
      parts[#parts + 1] = '"' .. text .. '"'
    end
    return table.concat(parts, " | ")
  end

  local function update_status(ctx)
    ctx.ui.setStatus("preset", active_name and ctx.ui.theme.fg("accent", "preset:" .. active_name) or nil)
  end

  local function apply(name, preset, ctx)
    if not active_name then
      original = { model = ctx.model, thinking = pi.getThinkingLevel(), tools = pi.getActiveTools() }
    end
    if preset.provider and preset.model then
      local model = ctx.modelRegistry.find(preset.provider, preset.model)
      if not model then
        ctx.ui.notify(string.format('Preset "%s": Model %s/%s not found', name, preset.provider, preset.model), "warning")
      elseif not pi.setModel(model) then
        ctx.ui.notify(string.format('Preset "%s": No API key for %s/%s', name, preset.provider, preset.model), "warning")
      end
    end
    if preset.thinkingLevel then pi.setThinkingLevel(preset.thinkingLevel) end
    if preset.tools and #preset.tools > 0 then
      local known = {}
      for _, tool in ipairs(pi.getAllTools()) do known[tool.name] = true end
      local valid, unknown = {}, {}
      for _, tool in ipairs(preset.tools) do
        if known[tool] then valid[#valid + 1] = tool else unknown[#unknown + 1] = tool end
      end
      if #unknown > 0 then
        ctx.ui.notify(string.format('Preset "%s": Unknown tools: %s', name, table.concat(unknown, ", ")), "warning")
      end
      if #valid > 0 then pi.setActiveTools(valid) end
    end
    active_name, active = name, preset
  end

  local function activate(name, ctx)
    apply(name, presets[name], ctx)
    ctx.ui.notify(string.format('Preset "%s" activated', name), "info")
    update_status(ctx)
  end

  local function clear(ctx)
    active_name, active = nil, nil
    if original then
      if type(original.model) == "table" then pi.setModel(original.model) end
      pi.setThinkingLevel(original.thinking)
      pi.setActiveTools(original.tools)
    else
      pi.setActiveTools(DEFAULT_TOOLS)
    end
    ctx.ui.notify("Preset cleared, defaults restored", "info")
    update_status(ctx)
  end

  local function none_defined(ctx)
    ctx.ui.notify("No presets defined. Add presets to ~/.pi/agent/presets.json or .pi/presets.json", "warning")
  end

  local function choose(ctx)
    local list = names()
    if #list == 0 then return none_defined(ctx) end
    local items = {}
    for i, name in ipairs(list) do
      items[i] = { value = name, label = name == active_name and (name .. " (active)") or name, description = describe(presets[name]) }
    end
    items[#items + 1] = { value = "(none)", label = "(none)", description = "Clear active preset, restore defaults" }

    local picked = ctx.ui.custom(function(tui, theme, _, done)
      local select = ui.SelectList(items, math.min(#items, 10), theme)
      select.onSelect = function(item) done(item.value) end
      select.onCancel = function() done(nil) end
      local box = ui.Container()
      box.addChild(ui.DynamicBorder(function(s) return theme.fg("accent", s) end))
      box.addChild(ui.Text(theme.fg("accent", theme.bold("Select Preset")), 0, 0))
      box.addChild(select)
      box.addChild(ui.Text(theme.fg("dim", "↑↓ navigate • enter select • esc cancel"), 0, 0))
      box.addChild(ui.DynamicBorder(function(s) return theme.fg("accent", s) end))
      return {
        render = function(width) return box.render(width) end,
        handleInput = function(key)
          select.handleInput(key)
          tui.requestRender()
        end,
      }
    end)
    if picked == "(none)" then
      clear(ctx)
    elseif picked and presets[picked] then
      activate(picked, ctx)
    end
  end

  local function cycle(ctx)
    local list = names()
    if #list == 0 then return none_defined(ctx) end
    table.insert(list, 1, "(none)")
    local current = active_name or "(none)"
    local next_name = list[1]
    for i, name in ipairs(list) do
      if name == current then next_name = list[i % #list + 1] end
    end
    if next_name == "(none)" then return clear(ctx) end
    activate(next_name, ctx)
  end

  pi.registerShortcut("ctrl+shift+u", { description = "Cycle presets", handler = cycle })

  pi.registerCommand("preset", {
    description = "Switch preset configuration",
    handler = function(args, ctx)
      local name = args:match("^%s*(.-)%s*$")
      if name == "" then return choose(ctx) end
      if not presets[name] then
        local available = table.concat(names(), ", ")
        return ctx.ui.notify(string.format('Unknown preset "%s". Available: %s', name,
          available ~= "" and available or "(none defined)"), "error")
      end
      activate(name, ctx)
    end,
  })

  pi.on("before_agent_start", function(event)
    if active and active.instructions then
      return { systemPrompt = event.systemPrompt .. "\n\n" .. active.instructions }
    end
  end)

  pi.on("session_start", function(_, ctx)
    presets = load(ctx.cwd)
    local flag = pi.getFlag("preset")
    if type(flag) == "string" and flag ~= "" then
      if presets[flag] then
        activate(flag, ctx)
      else
        local available = table.concat(names(), ", ")
        ctx.ui.notify(string.format('Unknown preset "%s". Available: %s', flag,
          available ~= "" and available or "(none defined)"), "warning")
      end
    else
      -- Restore the name (and so the instructions) the session last used.
      local last
      for _, entry in ipairs(ctx.sessionManager.getEntries()) do
        if entry.type == "custom" and entry.customType == "preset-state" and entry.data then last = entry.data.name end
      end
      if last and presets[last] then active_name, active = last, presets[last] end
    end
    update_status(ctx)
  end)

  pi.on("turn_start", function()
    if active_name then pi.appendEntry("preset-state", { name = active_name }) end
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = { read = { "$agent/presets.json", ".pi/presets.json" } },
    env = { "HOME", "PI_CODING_AGENT_DIR" },
  },
  setup = setup,
}
