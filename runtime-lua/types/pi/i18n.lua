---@meta
-- LuaLS annotations for pi's translation API (`pi.i18n`, `t()`), see docs/extensions.md,
-- "Localising an extension".

---A message: text with `{name}` placeholders, `{value, description}`, or plural forms
---chosen by `params.count` (`{value = {one = "...", other = "..."}}`).
---@alias pi.I18nMessage string|{value: string|table<string, string>, description?: string}

---A locale bundle (BundleV1). Extensions use the namespace `ext.<name>`.
---@class pi.I18nBundle
---@field version 1
---@field namespace string e.g. "ext.todo"
---@field locale string BCP-47 tag, e.g. "zh-TW"
---@field messages table<string, pi.I18nMessage>

---Values for placeholders; `count` also selects the plural form.
---@alias pi.I18nParams table<string, string|number|boolean>

---What `pi-core/i18n/requestApi` passes as the second reply argument.
---@class pi.I18nCapabilities
---@field name "pi-i18n"
---@field provider "pi-core"
---@field apiVersion integer
---@field bundleVersion integer
---@field locale string
---@field fallbackLocale string
---@field locales string[] locales with at least one bundle
---@field features string[]
---@field direction "ltr"

---Translate `key` (`ext.<name>.<message>`) in the current locale.
---@param key string
---@param params? pi.I18nParams
---@return string
function t(key, params) end
