-- Adds a skill, a prompt template and a theme that live next to this file,
-- through the resources_discover event.
--
--   pi -e extensions/examples/dynamic-resources
--
-- Then /skill:dynamic-resources, /dynamic and the "dynamic-resources" theme exist.

-- The folder of this file: Lua reports the chunk's path in error positions.
local function here()
  local _, where = pcall(error, "", 2)
  return where
end
local base = (here():match("^(.*)/[^/]*:%d+: ?$")) or "."

return function(pi)
  pi.on("resources_discover", function()
    return {
      skillPaths = { base .. "/SKILL.md" },
      promptPaths = { base .. "/dynamic.md" },
      themePaths = { base .. "/dynamic.json" },
    }
  end)
end
