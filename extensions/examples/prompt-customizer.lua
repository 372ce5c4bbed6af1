-- Adds guidance to the system prompt for the tools that are actually active
-- and names the skills that are loaded, so the advice follows your setup.
--
--   pi -e extensions/examples/prompt-customizer.lua
local GUIDANCE = {
  { "read", "• Use the `read` tool for file contents (supports text and images).\n"
    .. "  - For large files, use `offset` and `limit` to read in chunks." },
  { "bash", "• Execute commands with the `bash` tool. Use it for file operations like `ls`, `find`, `grep`." },
  { "edit", "• Use the `edit` tool for precise text replacements in files. Match exact content including whitespace." },
  { "write", "• Use the `write` tool to create new files or overwrite existing ones completely." },
}

local EXTENSION_CONTEXT = [[

## Extension-Added Context
This prompt includes tool guidance and skill information loaded dynamically.
If you have additional requirements, configure them via --append-system-prompt or project context files.
]]

local function setup(pi)
  pi.on("before_agent_start", function(event)
    local active = {}
    for _, name in ipairs(pi.getActiveTools()) do active[name] = true end

    local parts = {}
    for _, item in ipairs(GUIDANCE) do
      if active[item[1]] then parts[#parts + 1] = item[2] end
    end
    local skills = {}
    for _, cmd in ipairs(pi.getCommands()) do
      if cmd.source == "skill" then skills[#skills + 1] = (cmd.name:gsub("^skill:", "")) end
    end
    if #skills > 0 then
      parts[#parts + 1] = "\nAvailable skills: " .. table.concat(skills, ", ")
      parts[#parts + 1] = "Use skill documentation for best practices on specific tools."
    end

    local prompt = event.systemPrompt
    if #parts > 0 then
      prompt = prompt .. "\n\n## Tool Guidance\n\n" .. table.concat(parts, "\n") .. "\n"
    end
    return { systemPrompt = prompt .. EXTENSION_CONTEXT }
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
