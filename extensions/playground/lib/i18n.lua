-- The playground's texts: one locale bundle per language in `locales/` beside the
-- extensions (`en.json`, `zh-TW.json`, ...; `fr.toml` works too), registered
-- under the namespace `ext.playground` through pi's i18n API. Every extension calls
-- `local tr = require("lib.i18n").load(pi)` and then `tr("damage-control.status", {count = 2})`.

local M = {}

M.NAMESPACE = "ext.playground"
M.LOCALES = { "en", "zh-TW", "zh-CN", "ja" } -- the languages shipped

--- Register the bundles (once per extension load) and return the translate function.
---@param pi pi.API
---@return fun(key: string, params?: pi.I18nParams): string
function M.load(pi)
  local dir = pi.extensionDir .. "/locales/"
  for _, entry in ipairs(pi.fs.list(dir) or {}) do
    local tag, kind = entry.name:match("^(.+)%.(%a+)$")
    local text = (kind == "json" or kind == "toml") and pi.fs.read(dir .. entry.name)
    local bundle, why
    if text and kind == "json" then
      local ok, value = pcall(pi.json.decode, text)
      if ok then bundle = value else why = tostring(value) end
    elseif text then
      bundle, why = pi.toml.decode(text)
    end
    if type(bundle) == "table" then
      bundle.version = bundle.version or 1
      bundle.namespace = M.NAMESPACE
      bundle.locale = tag
      local ok, reasons = pi.i18n.registerBundle(bundle)
      if not ok then
        pi.log.warn(dir .. entry.name .. ": " .. table.concat(reasons or {}, "; "))
      end
    elseif why then
      pi.log.warn(dir .. entry.name .. ": " .. why)
    end
  end
  local english = {}
  local en = pi.fs.read(dir .. "en.json")
  if en then english = (pi.json.decode(en) or {}).messages or {} end
  local prefix = M.NAMESPACE .. "."
  return function(key, params)
    local full = prefix .. key
    local out = pi.i18n.t(full, params)
    if out ~= full then return out end
    -- Not in the catalog (yet, or any more): the English text, filled in here.
    local message = english[key]
    if type(message) == "table" then message = message.value end
    if type(message) == "table" then
      message = (params and params.count == 1 and message.one) or message.other
    end
    if type(message) ~= "string" then return full end
    return (message:gsub("{(%w+)}", function(name)
      local value = params and params[name]
      return value ~= nil and tostring(value) or nil
    end))
  end
end

--- Texts drawn while rendering, translated ahead of time (never inside a render) and
--- again whenever the language changes: `local T = i18n.texts(pi, tr, {title = "x.title"})`.
---@param pi pi.API
---@param tr fun(key: string, params?: pi.I18nParams): string
---@param keys table<string, string> name -> message key
---@return table<string, string>
function M.texts(pi, tr, keys)
  local out = {}
  local function fill()
    for name, key in pairs(keys) do out[name] = tr(key) end
  end
  fill()
  pi.i18n.onLocaleChanged(fill)
  return out
end

return M
