-- pi.ui: ready components. A component is a table with render(width) ->
-- {lines}, and optionally handleInput(key) and invalidate(). Built once per
-- VM on top of the Rust string helpers passed in as `ui`.
local ui = ...

local W = ui.visibleWidth
local function pad_right(s, width)
  local w = W(s)
  if w >= width then return ui.truncateToWidth(s, width, "") end
  return s .. string.rep(" ", width - w)
end
ui.padToWidth = pad_right

-- A theme for components when the UI passes none: tokens map to plain
-- terminal colours.
local codes = {
  accent = 36, border = 90, borderAccent = 36, borderMuted = 90, success = 32,
  error = 31, warning = 33, muted = 90, dim = 90, text = 39, thinkingText = 90,
  toolTitle = 1, mdHeading = 33, mdCode = 36, customMessageLabel = 35,
}
local bg_codes = { selectedBg = 48, userMessageBg = 48, toolPendingBg = 48, customMessageBg = 48 }
ui.defaultTheme = {
  name = "ansi",
  fg = function(token, text) return "\27[" .. (codes[token] or 39) .. "m" .. text .. "\27[39m" end,
  bg = function(token, text)
    if bg_codes[token] then return "\27[48;5;236m" .. text .. "\27[49m" end
    return text
  end,
  bold = function(text) return "\27[1m" .. text .. "\27[22m" end,
  italic = function(text) return "\27[3m" .. text .. "\27[23m" end,
  dim = function(text) return "\27[2m" .. text .. "\27[22m" end,
  underline = function(text) return "\27[4m" .. text .. "\27[24m" end,
  strikethrough = function(text) return "\27[9m" .. text .. "\27[29m" end,
  inverse = function(text) return "\27[7m" .. text .. "\27[27m" end,
}

local function padded(lines, width, px, py, bg)
  local out = {}
  local blank = string.rep(" ", width)
  for _ = 1, py do out[#out + 1] = bg and bg(blank) or blank end
  local inner = math.max(1, width - 2 * px)
  for _, l in ipairs(lines) do
    local line = string.rep(" ", px) .. pad_right(l, inner) .. string.rep(" ", px)
    out[#out + 1] = bg and bg(line) or line
  end
  for _ = 1, py do out[#out + 1] = bg and bg(blank) or blank end
  return out
end

--- Text(text, paddingX = 1, paddingY = 0, bgFn): wrapped text.
function ui.Text(text, px, py, bg)
  local self = { text = text or "", paddingX = px or 1, paddingY = py or 0, bg = bg }
  function self.setText(t) self.text = t or "" end
  function self.invalidate() end
  function self.render(width)
    if self.text == "" then return {} end
    local inner = math.max(1, width - 2 * self.paddingX)
    return padded(ui.wrapTextWithAnsi(self.text, inner), width, self.paddingX, self.paddingY, self.bg)
  end
  return self
end

--- TruncatedText(text, paddingX = 0, paddingY = 0): the first line of text, cut with
--- "..." to fit, every line padded to the whole width.
function ui.TruncatedText(text, px, py)
  local self = { text = text or "", paddingX = px or 0, paddingY = py or 0 }
  function self.setText(t) self.text = t or "" end
  function self.invalidate() end
  function self.render(width)
    local out = {}
    local blank = string.rep(" ", width)
    for _ = 1, self.paddingY do out[#out + 1] = blank end
    local inner = math.max(1, width - 2 * self.paddingX)
    local first = self.text:match("^[^\n]*")
    local shown = ui.truncateToWidth(first, inner, "...")
    local line = string.rep(" ", self.paddingX) .. shown .. string.rep(" ", self.paddingX)
    out[#out + 1] = line .. string.rep(" ", math.max(0, width - W(line)))
    for _ = 1, self.paddingY do out[#out + 1] = blank end
    return out
  end
  return self
end

--- Container(): children rendered one under the other.
function ui.Container()
  local self = { children = {} }
  function self.addChild(c) self.children[#self.children + 1] = c; return c end
  function self.removeChild(c)
    for i, x in ipairs(self.children) do
      if x == c then table.remove(self.children, i); return end
    end
  end
  function self.clear() self.children = {} end
  function self.invalidate()
    for _, c in ipairs(self.children) do if c.invalidate then c.invalidate() end end
  end
  function self.render(width)
    local out = {}
    for _, c in ipairs(self.children) do
      for _, l in ipairs(c.render(width)) do out[#out + 1] = l end
    end
    return out
  end
  return self
end

--- Box(paddingX = 1, paddingY = 1, bgFn): a padded container.
function ui.Box(px, py, bg)
  local self = ui.Container()
  self.paddingX, self.paddingY, self.bg = px or 1, py or 1, bg
  local render_children = self.render
  function self.render(width)
    local inner = math.max(1, width - 2 * self.paddingX)
    return padded(render_children(inner), width, self.paddingX, self.paddingY, self.bg)
  end
  return self
end

--- Spacer(lines = 1): empty lines.
function ui.Spacer(n)
  local self = { lines = n or 1 }
  function self.render()
    local out = {}
    for i = 1, self.lines do out[i] = "" end
    return out
  end
  return self
end

--- DynamicBorder(colorFn): a rule across the whole width.
function ui.DynamicBorder(color)
  local self = { color = color }
  function self.render(width)
    local line = string.rep("─", width)
    return { self.color and self.color(line) or line }
  end
  return self
end
ui.Border = ui.DynamicBorder

local SPINNER = { "⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏" }
--- Loader(tui, spinnerColorFn, messageColorFn, message): an animated spinner.
function ui.Loader(tui, spin_color, msg_color, message)
  local self = { frame = 1, message = message or "Loading..." }
  self.timer = ui.setInterval(function()
    self.frame = self.frame % #SPINNER + 1
    if tui and tui.requestRender then tui.requestRender() end
  end, 80)
  function self.setMessage(m) self.message = m end
  function self.stop() ui.clearInterval(self.timer) end
  function self.render(width)
    local s = SPINNER[self.frame]
    s = spin_color and spin_color(s) or s
    local m = msg_color and msg_color(self.message) or self.message
    return { ui.truncateToWidth(s .. " " .. m, width) }
  end
  return self
end

local function inline_md(s, theme)
  s = s:gsub("%*%*(.-)%*%*", function(x) return theme.bold(x) end)
  s = s:gsub("`([^`]+)`", function(x) return theme.fg("mdCode", x) end)
  return s
end

--- Markdown(text, paddingX = 1, paddingY = 0, theme): headings, lists, code
-- blocks, **bold** and `code`, wrapped to the width.
function ui.Markdown(text, px, py, theme)
  local self = { text = text or "", paddingX = px or 1, paddingY = py or 0 }
  local th = theme or ui.defaultTheme
  function self.setText(t) self.text = t or "" end
  function self.invalidate() end
  function self.render(width)
    local inner = math.max(1, width - 2 * self.paddingX)
    local out, code = {}, false
    for raw in (self.text .. "\n"):gmatch("(.-)\n") do
      if raw:match("^```") then
        code = not code
      elseif code then
        out[#out + 1] = th.fg("mdCode", ui.truncateToWidth("  " .. raw, inner))
      else
        local level, heading = raw:match("^(#+)%s+(.*)")
        local bullet, item = raw:match("^(%s*[-*])%s+(.*)")
        local line
        if heading then
          line = th.fg("mdHeading", th.bold(heading))
        elseif bullet then
          line = bullet:gsub("[-*]", "•") .. " " .. inline_md(item, th)
        else
          line = inline_md(raw, th)
        end
        for _, l in ipairs(ui.wrapTextWithAnsi(line, inner)) do out[#out + 1] = l end
        if raw == "" then out[#out + 1] = "" end
      end
    end
    return padded(out, width, self.paddingX, self.paddingY)
  end
  return self
end

--- SelectList(items, maxVisible = 8, theme): items are {value, label,
-- description}; up/down move, enter calls onSelect(item), escape onCancel().
function ui.SelectList(items, max_visible, theme)
  local th = theme or ui.defaultTheme
  local self = { items = items or {}, selectedIndex = 1, maxVisible = max_visible or 8, filter = "" }
  local function visible()
    if self.filter == "" then return self.items end
    local out = {}
    for _, it in ipairs(self.items) do
      local l = (it.label or tostring(it.value)):lower()
      if l:find(self.filter:lower(), 1, true) then out[#out + 1] = it end
    end
    return out
  end
  function self.setFilter(f) self.filter = f or ""; self.selectedIndex = 1 end
  function self.getSelectedItem() return visible()[self.selectedIndex] end
  function self.setSelectedIndex(i) self.selectedIndex = i end
  function self.invalidate() end
  function self.handleInput(key)
    local list = visible()
    if ui.matchesKey(key, "up") then
      self.selectedIndex = self.selectedIndex <= 1 and #list or self.selectedIndex - 1
    elseif ui.matchesKey(key, "down") then
      self.selectedIndex = self.selectedIndex >= #list and 1 or self.selectedIndex + 1
    elseif ui.matchesKey(key, "enter") then
      if self.onSelect and list[self.selectedIndex] then self.onSelect(list[self.selectedIndex]) end
      return true
    elseif ui.matchesKey(key, "escape") then
      if self.onCancel then self.onCancel() end
      return true
    else
      return false
    end
    if self.onSelectionChange then self.onSelectionChange(list[self.selectedIndex]) end
    return true
  end
  function self.render(width)
    local list = visible()
    if #list == 0 then return { th.fg("muted", "  No matching items") } end
    local first = math.max(1, math.min(self.selectedIndex - math.floor(self.maxVisible / 2),
      #list - self.maxVisible + 1))
    local out = {}
    for i = first, math.min(#list, first + self.maxVisible - 1) do
      local it = list[i]
      local text = it.label or tostring(it.value)
      if it.description then text = text .. "  " .. th.fg("muted", it.description) end
      if i == self.selectedIndex then
        out[#out + 1] = ui.truncateToWidth(th.fg("accent", "→ ") .. th.fg("accent", text), width)
      else
        out[#out + 1] = ui.truncateToWidth("  " .. text, width)
      end
    end
    if #list > self.maxVisible then
      out[#out + 1] = th.fg("muted", string.format("  (%d/%d)", self.selectedIndex, #list))
    end
    return out
  end
  return self
end

--- SettingsList(items, maxVisible, theme, onChange(id, value), onCancel()):
-- items are {id, label, currentValue, values}; enter/space cycles a value.
function ui.SettingsList(items, max_visible, theme, on_change, on_cancel)
  local th = theme or ui.defaultTheme
  local self = { items = items or {}, selectedIndex = 1, maxVisible = max_visible or 10 }
  function self.invalidate() end
  function self.updateValue(id, value)
    for _, it in ipairs(self.items) do if it.id == id then it.currentValue = value end end
  end
  function self.handleInput(key)
    local n = #self.items
    if ui.matchesKey(key, "up") then
      self.selectedIndex = self.selectedIndex <= 1 and n or self.selectedIndex - 1
    elseif ui.matchesKey(key, "down") then
      self.selectedIndex = self.selectedIndex >= n and 1 or self.selectedIndex + 1
    elseif ui.matchesKey(key, "enter") or key == " " then
      local it = self.items[self.selectedIndex]
      if it and it.values and #it.values > 0 then
        local next_i = 1
        for i, v in ipairs(it.values) do if v == it.currentValue then next_i = i % #it.values + 1 end end
        it.currentValue = it.values[next_i]
        if on_change then on_change(it.id, it.currentValue) end
      end
    elseif ui.matchesKey(key, "escape") then
      if on_cancel then on_cancel() end
    else
      return false
    end
    return true
  end
  function self.render(width)
    local out = {}
    local label_w = 0
    for _, it in ipairs(self.items) do label_w = math.max(label_w, W(it.label or it.id)) end
    for i = 1, math.min(#self.items, self.maxVisible) do
      local it = self.items[i]
      local label = pad_right(it.label or it.id, label_w)
      local prefix = i == self.selectedIndex and th.fg("accent", "→ ") or "  "
      local value = tostring(it.currentValue or "")
      if i == self.selectedIndex then label, value = th.fg("accent", label), th.fg("accent", value) end
      out[#out + 1] = ui.truncateToWidth(prefix .. label .. "  " .. value, width)
    end
    return out
  end
  return self
end

return ui
