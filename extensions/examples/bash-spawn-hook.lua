-- Replaces the bash tool with pi's own bash tool plus a spawn hook that adjusts
-- each command before it runs: it sources ~/.profile first and sets
-- PI_SPAWN_HOOK=1 in the environment. Output, truncation and exit codes stay
-- exactly those of the built-in tool.
--
--   pi -e extensions/examples/bash-spawn-hook.lua
local function setup(pi)
  pi.registerTool(pi.createBashTool({
    spawnHook = function(spawn)
      spawn.env.PI_SPAWN_HOOK = "1"
      return {
        command = "source ~/.profile 2>/dev/null\n" .. spawn.command,
        cwd = spawn.cwd,
        env = spawn.env,
      }
    end,
  }))
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "bash" } },
  setup = setup,
}
