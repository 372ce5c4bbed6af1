-- Protected paths: refuses writes and edits to secrets and generated folders
-- (.env files, .git/, node_modules/) and says so in the UI.
--
--   pi -e extensions/examples/protected-paths.lua

local PROTECTED = { "%.env$", "%.env%.[%w_-]+$", "^%.git/", "/%.git/", "node_modules/" }

local function protected(path)
  path = path:gsub("^%./", "")
  for _, pattern in ipairs(PROTECTED) do
    if path:find(pattern) then
      return true
    end
  end
  return false
end

local function setup(pi)
  pi.on("tool_call", function(event, ctx)
    if event.toolName ~= "write" and event.toolName ~= "edit" then
      return nil
    end
    local path = event.input.path or event.input.file_path or ""
    if protected(path) then
      ctx.ui.notify("Blocked a " .. event.toolName .. " to protected path " .. path, "warning")
      return { block = true, reason = "Path \"" .. path .. "\" is protected; do not change it" }
    end
    return nil
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
