-- Expands !{command} in a prompt into the command's output before the model
-- sees it:  What's in !{pwd}?   The branch is !{git branch --show-current}.
-- A line that starts with a plain ! is still pi's own bash command.
--
--   pi -e extensions/examples/inline-bash.lua
local TIMEOUT_MS = 30000

local function setup(pi)
  pi.on("input", function(event, ctx)
    local text = event.text
    local lead = text:match("^%s*(.-)$")
    if lead:sub(1, 1) == "!" and lead:sub(1, 2) ~= "!{" then return { action = "continue" } end
    if not text:find("!{[^}]+}") then return { action = "continue" } end

    -- Run every command first (pi.exec waits, which it cannot do inside gsub),
    -- then splice the outputs in.
    local expansions = {}
    for command in text:gmatch("!{([^}]+)}") do
      local run = pi.exec("bash", { "-c", command }, { timeout = TIMEOUT_MS })
      local output = (run.stdout ~= "" and run.stdout or run.stderr):match("^%s*(.-)%s*$")
      local failure
      if run.killed then
        failure = "timed out"
      elseif run.code ~= 0 and run.stderr ~= "" then
        failure = "exit code " .. tostring(run.code)
      end
      expansions[#expansions + 1] = { command = command, output = output, error = failure }
    end
    local n = 0
    local result = text:gsub("!{[^}]+}", function()
      n = n + 1
      return expansions[n].output
    end)

    if ctx.hasUI and #expansions > 0 then
      local lines = {}
      for i, e in ipairs(expansions) do
        local preview = #e.output > 50 and (e.output:sub(1, 50) .. "...") or e.output
        lines[i] = string.format('!{%s}%s -> "%s"', e.command, e.error and (" (" .. e.error .. ")") or "", preview)
      end
      ctx.ui.notify(string.format("Expanded %d inline command(s):\n%s", #expansions, table.concat(lines, "\n")), "info")
    end
    return { action = "transform", text = result }
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "bash" } },
  setup = setup,
}
