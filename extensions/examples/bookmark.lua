-- /bookmark [label] labels the last assistant message so it is easy to find
-- in /tree; /unbookmark removes the most recent label.
--
--   pi -e extensions/examples/bookmark.lua
local function setup(pi)
  pi.registerCommand("bookmark", {
    description = "Bookmark last message (usage: /bookmark [label])",
    handler = function(args, ctx)
      local label = args:match("^%s*(.-)%s*$")
      if label == "" then label = "bookmark-" .. os.time() end
      local entries = ctx.sessionManager.getEntries()
      for i = #entries, 1, -1 do
        local entry = entries[i]
        if entry.type == "message" and entry.message.role == "assistant" then
          pi.setLabel(entry.id, label)
          ctx.ui.notify("Bookmarked as: " .. label, "info")
          return
        end
      end
      ctx.ui.notify("No assistant message to bookmark", "warning")
    end,
  })

  pi.registerCommand("unbookmark", {
    description = "Remove bookmark from last labeled entry",
    handler = function(_, ctx)
      local entries = ctx.sessionManager.getEntries()
      for i = #entries, 1, -1 do
        local label = ctx.sessionManager.getLabel(entries[i].id)
        if label then
          pi.setLabel(entries[i].id, nil)
          ctx.ui.notify("Removed bookmark: " .. label, "info")
          return
        end
      end
      ctx.ui.notify("No bookmarked entry found", "warning")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
