-- Lists the project's .claude/rules/**/*.md files in the system prompt, so the
-- model knows they exist and reads the ones that matter with the read tool.
--
--   pi -e extensions/examples/claude-rules.lua
local function find_markdown(pi, dir, prefix, out)
  for _, entry in ipairs(pi.fs.list(dir) or {}) do
    local rel = prefix and (prefix .. "/" .. entry.name) or entry.name
    if entry.isDir then
      find_markdown(pi, dir .. "/" .. entry.name, rel, out)
    elseif entry.name:match("%.md$") then
      out[#out + 1] = rel
    end
  end
  return out
end

local function setup(pi)
  local rules = {}

  pi.on("session_start", function(_, ctx)
    rules = find_markdown(pi, ctx.cwd .. "/.claude/rules", nil, {})
    if #rules > 0 then
      ctx.ui.notify(string.format("Found %d rule(s) in .claude/rules/", #rules), "info")
    end
  end)

  pi.on("before_agent_start", function(event)
    if #rules == 0 then return end
    local list = {}
    for i, file in ipairs(rules) do list[i] = "- .claude/rules/" .. file end
    return {
      systemPrompt = event.systemPrompt .. "\n\n## Project Rules\n\n"
        .. "The following project rules are available in .claude/rules/:\n\n"
        .. table.concat(list, "\n")
        .. "\n\nWhen working on tasks related to these rules, use the read tool to load the relevant rule files for guidance.\n",
    }
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "." } } },
  setup = setup,
}
