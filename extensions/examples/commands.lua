-- /commands [extension|prompt|skill] lists the slash commands of this session,
-- grouped by where they come from; picking one offers to show its source file.
--
--   pi -e extensions/examples/commands.lua
local SOURCES = {
  { key = "extension", label = "Extensions" },
  { key = "prompt", label = "Prompts" },
  { key = "skill", label = "Skills" },
}

local function setup(pi)
  pi.registerCommand("commands", {
    description = "List available slash commands",
    getArgumentCompletions = function(prefix)
      local items = {}
      for _, source in ipairs(SOURCES) do
        if source.key:sub(1, #prefix) == prefix then
          items[#items + 1] = { value = source.key, label = source.key }
        end
      end
      return #items > 0 and items or nil
    end,
    handler = function(args, ctx)
      local all = pi.getCommands()
      local filter = args:match("^%s*(.-)%s*$")
      local items = {}
      for _, source in ipairs(SOURCES) do
        if filter == "" or filter == source.key then
          local heading = false
          for _, cmd in ipairs(all) do
            if cmd.source == source.key then
              if not heading then
                items[#items + 1] = "--- " .. source.label .. " ---"
                heading = true
              end
              local desc = cmd.description and cmd.description ~= "" and (" - " .. cmd.description) or ""
              items[#items + 1] = "/" .. cmd.name .. desc
            end
          end
        end
      end
      if #items == 0 then
        ctx.ui.notify(filter ~= "" and ("No " .. filter .. " commands found") or "No commands found", "info")
        return
      end

      local picked = ctx.ui.select("Available Commands", items)
      if not picked or picked:find("^%-%-%-") then return end
      local name = picked:match("^/(.-) %- ") or picked:sub(2)
      for _, cmd in ipairs(all) do
        local path = cmd.name == name and cmd.sourceInfo and cmd.sourceInfo.path
        if path and path ~= "" then
          if ctx.ui.confirm(cmd.name, "View source path?\n" .. path) then
            ctx.ui.notify(path, "info")
          end
          return
        end
      end
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
