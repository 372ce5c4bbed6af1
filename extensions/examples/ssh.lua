-- With --ssh user@host[:/path], pi's own read, write, edit and bash tools run on
-- a remote machine over ssh (key-based login, bash on the remote), and so do your
-- own !commands. The tools keep their built-in behaviour (offsets and truncation,
-- edit matching and diffs, streamed bash output); only their file and process
-- operations go over ssh. Without the flag pi's tools are left alone.
--
--   pi -e extensions/examples/ssh.lua --ssh user@host:/srv/app
local function quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

local B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
local function base64(data)
  local out = {}
  for i = 1, #data, 3 do
    local a, b, c = data:byte(i, i + 2)
    local n = (a << 16) | ((b or 0) << 8) | (c or 0)
    local chunk = {}
    for k = 3, 0, -1 do
      local index = (n >> (6 * k)) & 63
      chunk[#chunk + 1] = B64:sub(index + 1, index + 1)
    end
    local s = table.concat(chunk)
    if not b then
      s = s:sub(1, 2) .. "=="
    elseif not c then
      s = s:sub(1, 3) .. "="
    end
    out[#out + 1] = s
  end
  return table.concat(out)
end

local function setup(pi)
  local remote, remote_cwd, local_cwd

  pi.registerFlag("ssh", { type = "string", description = "SSH remote: user@host or user@host:/path" })

  -- Run `command` on the remote; returns stdout, or raises with ssh's error.
  local function ssh(command)
    local run = pi.exec("ssh", { remote, command })
    if run.code ~= 0 then error(string.format("SSH failed (%s): %s", tostring(run.code), run.stderr), 0) end
    return run.stdout
  end

  -- Paths arrive resolved against the local working directory.
  local function to_remote(path)
    if path:sub(1, #local_cwd) == local_cwd then return remote_cwd .. path:sub(#local_cwd + 1) end
    return path
  end

  ---@type pi.FileOperations
  local file_ops = {
    readFile = function(path) return ssh("cat " .. quote(to_remote(path))) end,
    access = function(path) ssh("test -r " .. quote(to_remote(path))) end,
    writeFile = function(path, content)
      ssh("echo " .. quote(base64(content)) .. " | base64 -d > " .. quote(to_remote(path)))
    end,
    mkdir = function(dir) ssh("mkdir -p " .. quote(to_remote(dir))) end,
  }

  -- Output streams back line by line while the command runs.
  ---@type pi.BashOperations
  local bash_ops = {
    exec = function(command, cwd, opts)
      local function forward(line) opts.onData(line .. "\n") end
      local proc = pi.spawn("ssh", { remote, "cd " .. quote(to_remote(cwd)) .. " && " .. command }, {
        signal = opts.signal,
        onStdout = forward,
        onStderr = forward,
      })
      local result = proc.wait()
      if opts.signal.aborted then error("aborted", 0) end
      return { exitCode = result.code }
    end,
  }

  pi.on("session_start", function(_, ctx)
    local arg = pi.getFlag("ssh")
    if type(arg) ~= "string" or arg == "" or remote then return end
    local_cwd = ctx.cwd
    local host, path = arg:match("^([^:]+):(.+)$")
    if host then
      remote, remote_cwd = host, path
    else
      remote = arg
      remote_cwd = ssh("pwd"):match("^%s*(.-)%s*$")
    end
    pi.registerTool(pi.createReadTool(local_cwd, { operations = file_ops }))
    pi.registerTool(pi.createWriteTool(local_cwd, { operations = file_ops }))
    pi.registerTool(pi.createEditTool(local_cwd, { operations = file_ops }))
    pi.registerTool(pi.createBashTool(local_cwd, { operations = bash_ops }))
    ctx.ui.setStatus("ssh", ctx.ui.theme.fg("accent", "SSH: " .. remote .. ":" .. remote_cwd))
    ctx.ui.notify("SSH mode: " .. remote .. ":" .. remote_cwd, "info")
  end)

  -- Your own !commands run remotely too.
  pi.on("user_bash", function(event)
    if not remote then return end
    local run = pi.exec("ssh", { remote, "cd " .. quote(remote_cwd) .. " && " .. event.command })
    return { result = { output = run.stdout .. run.stderr, exitCode = run.code or 1 } }
  end)

  pi.on("before_agent_start", function(event)
    if not remote then return end
    local from = "Current working directory: " .. local_cwd
    local at = event.systemPrompt:find(from, 1, true)
    if not at then return end
    return {
      systemPrompt = event.systemPrompt:sub(1, at - 1)
        .. "Current working directory: " .. remote_cwd .. " (via SSH: " .. remote .. ")"
        .. event.systemPrompt:sub(at + #from),
    }
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "ssh" } },
  setup = setup,
}
