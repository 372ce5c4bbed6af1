-- With --ssh user@host[:/path], read, write, edit and bash work on a remote
-- machine over ssh (key-based login, bash on the remote), and so do your own
-- !commands. Without the flag pi's own tools are left alone.
--
--   pi -e extensions/examples/ssh.lua --ssh user@host:/srv/app
local MAX_LINES, MAX_BYTES = 2000, 50 * 1024

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

local function split(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  return lines
end

-- Replace each edit's oldText (unique, not overlapping) in `content`.
local function apply_edits(path, content, edits)
  local spans = {}
  for i, e in ipairs(edits) do
    if e.oldText == "" then error("edits[" .. (i - 1) .. "].oldText must not be empty in " .. path .. ".", 0) end
    local at = content:find(e.oldText, 1, true)
    if not at then
      error("Could not find edits[" .. (i - 1) .. "] in " .. path .. ". The oldText must match exactly including all whitespace and newlines.", 0)
    end
    if content:find(e.oldText, at + 1, true) then
      error("Found multiple occurrences of edits[" .. (i - 1) .. "] in " .. path .. ". Each oldText must be unique. Please provide more context to make it unique.", 0)
    end
    spans[#spans + 1] = { from = at, to = at + #e.oldText - 1, new = e.newText, old = e.oldText }
  end
  table.sort(spans, function(x, y) return x.from < y.from end)
  for i = 2, #spans do
    if spans[i].from <= spans[i - 1].to then error("edits overlap in " .. path .. ". Merge them into one edit.", 0) end
  end
  local parts, pos, diff = {}, 1, {}
  for _, s in ipairs(spans) do
    parts[#parts + 1] = content:sub(pos, s.from - 1)
    parts[#parts + 1] = s.new
    pos = s.to + 1
    local line = select(2, content:sub(1, s.from - 1):gsub("\n", "")) + 1
    diff[#diff + 1] = string.format("@@ line %d @@", line)
    for _, l in ipairs(split(s.old)) do diff[#diff + 1] = "-" .. l end
    for _, l in ipairs(split(s.new)) do diff[#diff + 1] = "+" .. l end
  end
  parts[#parts + 1] = content:sub(pos)
  return table.concat(parts), table.concat(diff, "\n")
end

return function(pi)
  local remote, remote_cwd
  local local_cwd

  pi.registerFlag("ssh", { type = "string", description = "SSH remote: user@host or user@host:/path" })

  -- Run `command` on the remote; returns stdout, or raises with ssh's error.
  local function ssh(command, signal)
    local run = pi.exec("ssh", { remote, command }, { signal = signal })
    if run.killed then error("aborted", 0) end
    if run.code ~= 0 then error(string.format("SSH failed (%s): %s", tostring(run.code), run.stderr), 0) end
    return run.stdout
  end

  local function remote_path(path)
    if path:sub(1, 1) ~= "/" then return remote_cwd .. "/" .. path:gsub("^%./", "") end
    if local_cwd and path:sub(1, #local_cwd) == local_cwd then return remote_cwd .. path:sub(#local_cwd + 1) end
    return path
  end

  local function text(s) return { content = { { type = "text", text = s } }, details = {} } end

  local function read_remote(path, signal)
    return ssh("cat " .. quote(remote_path(path)), signal)
  end

  local function write_remote(path, content, signal)
    local target = remote_path(path)
    local dir = target:match("^(.*)/[^/]*$")
    local mkdir = (dir and dir ~= "") and ("mkdir -p " .. quote(dir) .. " && ") or ""
    ssh(mkdir .. "echo " .. quote(base64(content)) .. " | base64 -d > " .. quote(target), signal)
  end

  local function register_tools()
    pi.registerTool({
      name = "read",
      label = "read (ssh)",
      description = "Read the contents of a file on the remote machine. Output is truncated to 2000 lines or 50KB; "
        .. "use offset/limit for large files.",
      parameters = {
        type = "object",
        properties = {
          path = { type = "string", description = "Path to the file to read (relative or absolute)" },
          offset = { type = "number", description = "Line number to start reading from (1-indexed)" },
          limit = { type = "number", description = "Maximum number of lines to read" },
        },
        required = { "path" },
      },
      execute = function(_, params, signal)
        local content = read_remote(params.path, signal)
        local lines = {}
        for line in (content:gsub("\n$", "") .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
        local first = math.max(1, math.floor(params.offset or 1))
        if first > #lines and #lines > 0 then error(string.format("Offset %d is beyond end of file (%d lines total)", first, #lines), 0) end
        local last = params.limit and math.min(#lines, first + math.floor(params.limit) - 1) or #lines
        local cut = pi.truncateHead(table.concat(lines, "\n", first, last), { maxLines = MAX_LINES, maxBytes = MAX_BYTES })
        local out = cut.content
        if cut.truncated then
          out = out .. string.format("\n\n[Showing lines %d-%d of %d. Use offset=%d to continue.]",
            first, first + cut.outputLines - 1, #lines, first + cut.outputLines)
        elseif last < #lines then
          out = out .. string.format("\n\n[%d more lines in file. Use offset=%d to continue.]", #lines - last, last + 1)
        end
        return text(out)
      end,
    })

    pi.registerTool({
      name = "write",
      label = "write (ssh)",
      description = "Write content to a file on the remote machine. Creates the file if it doesn't exist, "
        .. "overwrites if it does. Automatically creates parent directories.",
      parameters = {
        type = "object",
        properties = {
          path = { type = "string", description = "Path to the file to write (relative or absolute)" },
          content = { type = "string", description = "Content to write to the file" },
        },
        required = { "path", "content" },
      },
      execute = function(_, params, signal)
        write_remote(params.path, params.content, signal)
        return text(string.format("Successfully wrote %d bytes to %s", #params.content, params.path))
      end,
    })

    pi.registerTool({
      name = "edit",
      label = "edit (ssh)",
      description = "Edit a single file on the remote machine using exact text replacement. Every edits[].oldText "
        .. "must match a unique, non-overlapping region of the original file.",
      parameters = {
        type = "object",
        properties = {
          path = { type = "string", description = "Path to the file to edit (relative or absolute)" },
          edits = {
            type = "array",
            items = {
              type = "object",
              properties = {
                oldText = { type = "string", description = "Exact text for one targeted replacement; unique in the file." },
                newText = { type = "string", description = "Replacement text for this targeted edit." },
              },
              required = { "oldText", "newText" },
            },
          },
        },
        required = { "path", "edits" },
      },
      prepareArguments = function(args)
        if type(args) == "table" and args.edits == nil and args.oldText ~= nil then
          args.edits = { { oldText = args.oldText, newText = args.newText or "" } }
          args.oldText, args.newText = nil, nil
        end
        return args
      end,
      execute = function(_, params, signal)
        local updated, diff = apply_edits(params.path, read_remote(params.path, signal), params.edits)
        write_remote(params.path, updated, signal)
        return { content = { { type = "text", text = string.format("Successfully replaced %d block(s) in %s.", #params.edits, params.path) } },
          details = { diff = diff } }
      end,
    })

    pi.registerTool({
      name = "bash",
      label = "bash (ssh)",
      description = "Execute a bash command on the remote machine, in the remote working directory. "
        .. "Output is truncated to the last 2000 lines or 50KB.",
      parameters = {
        type = "object",
        properties = {
          command = { type = "string", description = "Bash command to execute" },
          timeout = { type = "number", description = "Timeout in seconds (optional, no default timeout)" },
        },
        required = { "command" },
      },
      execute = function(_, params, signal)
        local run = pi.exec("ssh", { remote, "cd " .. quote(remote_cwd) .. " && " .. params.command }, {
          signal = signal,
          timeout = params.timeout and math.floor(params.timeout * 1000) or nil,
        })
        local output = pi.truncateTail(run.stdout .. run.stderr).content
        if output == "" then output = "(no output)" end
        if run.killed then error(output .. "\n\nCommand aborted or timed out", 0) end
        if run.code ~= 0 then error(output .. "\n\nCommand exited with code " .. tostring(run.code), 0) end
        return text(output)
      end,
    })
  end

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
    register_tools()
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
