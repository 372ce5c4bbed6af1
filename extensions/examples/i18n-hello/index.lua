-- i18n-hello: a localised extension in a few lines.
--
-- Its texts live in locales/<tag>.json (namespace "ext.i18n-hello", loaded by pi
-- automatically). It asks for the translation API over the event bus, so the same file
-- also runs, in English, where no i18n provider answers.

---@param pi pi.API
local function setup(pi)
  local NS = "ext.i18n-hello."

  -- English baseline, used only when nobody answers the handshake.
  local english = {
    ["command.description"] = "Say hello in your language",
    ["greeting"] = "Hello, {name}!",
    ["files"] = { one = "You have {count} open file.", other = "You have {count} open files." },
    ["locale.changed"] = "Language is now {locale}",
  }

  ---@type pi.I18nApi|nil
  local i18n
  pi.events.emit("pi-i18n/requestApi", {
    reply = function(api)
      i18n = api
    end,
  })

  local function tr(key, params)
    if i18n then
      return i18n.t(NS .. key, params)
    end
    local text = english[key] or key
    if type(text) == "table" then
      text = (params and params.count == 1) and text.one or text.other
    end
    return (text:gsub("{(%w+)}", function(name)
      local value = params and params[name]
      return value ~= nil and tostring(value) or ("{" .. name .. "}")
    end))
  end

  pi.registerCommand("hello", {
    description = tr("command.description"),
    handler = function(args, ctx)
      local name = (args ~= nil and args ~= "") and args or "pi"
      ctx.ui.notify(tr("greeting", { name = name }), "info")
      ctx.ui.notify(tr("files", { count = 3 }), "info")
    end,
  })

  pi.events.on("pi-i18n/localeChanged", function(data)
    pi.log.info(tr("locale.changed", { locale = data.locale }))
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
