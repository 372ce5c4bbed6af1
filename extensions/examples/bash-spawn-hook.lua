-- Replaces the bash tool with one that adjusts each command before it runs:
-- it sources ~/.profile first and sets PI_SPAWN_HOOK=1 in the environment.
--
--   pi -e extensions/examples/bash-spawn-hook.lua
local function hook(command, cwd, env)
  env.PI_SPAWN_HOOK = "1"
  return "source ~/.profile 2>/dev/null\n" .. command, cwd, env
end

return function(pi)
  pi.registerTool({
    name = "bash",
    label = "bash",
    description = "Execute a bash command in the current working directory. Returns stdout and stderr. "
      .. "Output is truncated to the last 2000 lines or 50KB. Optionally provide a timeout in seconds.",
    parameters = {
      type = "object",
      properties = {
        command = { type = "string", description = "Bash command to execute" },
        timeout = { type = "number", description = "Timeout in seconds (optional, no default timeout)" },
      },
      required = { "command" },
    },
    execute = function(_, params, signal, onUpdate, ctx)
      local command, cwd, env = hook(params.command, ctx.cwd, {})
      local lines = {}
      local proc = pi.spawn("bash", { "-c", command }, {
        cwd = cwd,
        env = env,
        signal = signal,
        onStdout = function(line) lines[#lines + 1] = line end,
        onStderr = function(line) lines[#lines + 1] = line end,
      })
      local timer
      if params.timeout then
        timer = pi.setTimeout(function() proc.kill() end, math.floor(params.timeout * 1000))
      end
      local result = proc.wait()
      if timer then pi.clearTimeout(timer) end
      local cut = pi.truncateTail(table.concat(lines, "\n"))
      local output = cut.content
      if output == "" then output = "(no output)" end
      if cut.truncated then
        output = output .. string.format("\n\n[Showing the last %d of %d lines]", cut.outputLines, cut.totalLines)
      end
      if result.killed then
        error(output .. "\n\nCommand aborted or timed out", 0)
      elseif result.code ~= 0 then
        error(output .. "\n\nCommand exited with code " .. tostring(result.code), 0)
      end
      return { content = { { type = "text", text = output } }, details = {} }
    end,
  })
end
