-- Adds a skill, a prompt template and a theme that live next to this file,
-- through the resources_discover event.
--
--   pi -e extensions/examples/dynamic-resources
--
-- Then /skill:dynamic-resources, /dynamic and the "dynamic-resources" theme exist.

-- The folder of this file. pi has no call for it, but Lua names the chunk
-- in error positions ("/path/init.lua:12:"), shortened to "...tail" when the
-- path is long; then the full folder is read from the message of a failed
-- require, which names the extension's folder.
local function own_folder()
  local _, where = pcall(error, "", 2)
  local folder = where:match("^(.*)/[^/]*:%d+: ?$") or "."
  if folder:sub(1, 3) ~= "..." then return folder end
  local tail = folder:sub(4)
  local _, message = pcall(require, "dynamic-resources.no-such-module")
  local escaped = tail:gsub("%p", "%%%0")
  return tostring(message):match("(/[^\n]-" .. escaped .. ")") or folder
end
local base = own_folder()

local function setup(pi)
  pi.on("resources_discover", function()
    return {
      skillPaths = { base .. "/SKILL.md" },
      promptPaths = { base .. "/dynamic.md" },
      themePaths = { base .. "/dynamic.json" },
    }
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
