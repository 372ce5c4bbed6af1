-- Lua versions of pi's file and shell tools, for extensions that want their
-- own rendering of them (pi cannot hand its built-in tools to Lua). They take
-- pi's parameters and answer with pi's messages.
local M = {}

local MAX_LINES, MAX_BYTES = 2000, 50 * 1024
local IMAGES = { jpg = "image/jpeg", jpeg = "image/jpeg", png = "image/png", gif = "image/gif", webp = "image/webp" }
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
    if not b then s = s:sub(1, 2) .. "==" elseif not c then s = s:sub(1, 3) .. "=" end
    out[#out + 1] = s
  end
  return table.concat(out)
end

function M.split(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  return lines
end
local split = M.split

local function reply(text, details) return { content = { { type = "text", text = text } }, details = details or {} } end

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

--- The seven tool definitions (name, description, parameters, execute), for `pi`.
function M.definitions(pi)
  local defs = {}

  defs.read = {
    description = "Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent "
      .. "as attachments. For text files, output is truncated to 2000 lines or 50KB (whichever is hit first). Use "
      .. "offset/limit for large files.",
    parameters = {
      type = "object",
      properties = {
        path = { type = "string", description = "Path to the file to read (relative or absolute)" },
        offset = { type = "number", description = "Line number to start reading from (1-indexed)" },
        limit = { type = "number", description = "Maximum number of lines to read" },
      },
      required = { "path" },
    },
    execute = function(_, params)
      local content, why = pi.fs.read(params.path)
      if not content then error(tostring(why), 0) end
      local mime = IMAGES[(params.path:match("%.(%w+)$") or ""):lower()]
      if mime then
        return { content = { { type = "text", text = "Read image file [" .. mime .. "]" },
          { type = "image", data = base64(content), mimeType = mime } }, details = {} }
      end
      local lines = split(content)
      if content:sub(-1) == "\n" then lines[#lines] = nil end
      local first = math.max(1, math.floor(params.offset or 1))
      if #lines > 0 and first > #lines then
        error(string.format("Offset %d is beyond end of file (%d lines total)", first, #lines), 0)
      end
      local last = params.limit and math.min(#lines, first + math.floor(params.limit) - 1) or #lines
      local cut = pi.truncateHead(table.concat(lines, "\n", first, last), { maxLines = MAX_LINES, maxBytes = MAX_BYTES })
      local out, details = cut.content, {}
      if cut.truncated then
        details.truncation = cut
        out = out .. string.format("\n\n[Showing lines %d-%d of %d. Use offset=%d to continue.]",
          first, first + cut.outputLines - 1, #lines, first + cut.outputLines)
      elseif last < #lines then
        out = out .. string.format("\n\n[%d more lines in file. Use offset=%d to continue.]", #lines - last, last + 1)
      end
      return reply(out, details)
    end,
  }

  defs.bash = {
    description = "Execute a bash command in the current working directory. Returns stdout and stderr. Output is "
      .. "truncated to last 2000 lines or 50KB (whichever is hit first).",
    parameters = {
      type = "object",
      properties = {
        command = { type = "string", description = "Bash command to execute" },
        timeout = { type = "number", description = "Timeout in seconds (optional, no default timeout)" },
      },
      required = { "command" },
    },
    execute = function(_, params, signal, onUpdate, ctx)
      local lines = {}
      local proc = pi.spawn("bash", { "-c", params.command }, {
        cwd = ctx.cwd,
        signal = signal,
        onStdout = function(line)
          lines[#lines + 1] = line
          onUpdate({ content = { { type = "text", text = table.concat(lines, "\n") } }, details = {} })
        end,
        onStderr = function(line) lines[#lines + 1] = line end,
      })
      local timer = params.timeout and pi.setTimeout(function() proc.kill() end, math.floor(params.timeout * 1000))
      local run = proc.wait()
      if timer then pi.clearTimeout(timer) end
      local cut = pi.truncateTail(table.concat(lines, "\n"), { maxLines = MAX_LINES, maxBytes = MAX_BYTES })
      local out = cut.content ~= "" and cut.content or "(no output)"
      if run.killed then error(out .. "\n\nCommand aborted or timed out", 0) end
      if run.code ~= 0 then error(out .. "\n\nCommand exited with code " .. tostring(run.code), 0) end
      return reply(out, cut.truncated and { truncation = cut } or {})
    end,
  }

  defs.write = {
    description = "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. "
      .. "Automatically creates parent directories.",
    parameters = {
      type = "object",
      properties = {
        path = { type = "string", description = "Path to the file to write (relative or absolute)" },
        content = { type = "string", description = "Content to write to the file" },
      },
      required = { "path", "content" },
    },
    execute = function(_, params)
      pi.fs.write(params.path, params.content)
      return reply(string.format("Successfully wrote %d bytes to %s", #params.content, params.path))
    end,
  }

  defs.edit = {
    description = "Edit a file by replacing exact text. The oldText must match exactly (including whitespace). "
      .. "Use this for precise, surgical edits.",
    parameters = {
      type = "object",
      properties = {
        path = { type = "string", description = "Path to the file to edit (relative or absolute)" },
        edits = {
          type = "array",
          items = {
            type = "object",
            properties = {
              oldText = { type = "string", description = "Exact text for one targeted replacement. It must be unique in the original file and must not overlap with any other edits[].oldText in the same call." },
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
    execute = function(_, params)
      local content, why = pi.fs.read(params.path)
      if not content then error(tostring(why), 0) end
      local updated, diff = apply_edits(params.path, content, params.edits)
      pi.fs.write(params.path, updated)
      return reply(string.format("Successfully replaced %d block(s) in %s.", #params.edits, params.path), { diff = diff })
    end,
  }

  defs.find = {
    description = "Find files by name pattern (glob). Searches recursively from the specified path. Output limited to 200 results.",
    parameters = {
      type = "object",
      properties = {
        pattern = { type = "string", description = "Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'" },
        path = { type = "string", description = "Directory to search in (default: current directory)" },
        limit = { type = "number", description = "Maximum number of results (default: 200)" },
      },
      required = { "pattern" },
    },
    execute = function(_, params)
      local base = (params.path and params.path ~= "" and params.path ~= ".") and params.path:gsub("/+$", "") or nil
      local pattern = params.pattern:find("/") and params.pattern or ("**/" .. params.pattern)
      local found = pi.fs.glob(base and (base .. "/" .. pattern) or pattern)
      local limit = math.max(1, math.floor(params.limit or 200))
      local out = {}
      for _, path in ipairs(found) do
        if #out >= limit then break end
        out[#out + 1] = base and path:sub(#base + 2) or path
      end
      if #out == 0 then return reply("No files found matching pattern") end
      local text = table.concat(out, "\n")
      if #found > limit then text = text .. string.format("\n\n[%d results limit reached]", limit) end
      return reply(text)
    end,
  }

  defs.grep = {
    description = "Search file contents by regex pattern. Output limited to 200 matches.",
    parameters = {
      type = "object",
      properties = {
        pattern = { type = "string", description = "Search pattern (regex or literal string)" },
        path = { type = "string", description = "Directory or file to search (default: current directory)" },
        glob = { type = "string", description = "Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'" },
        ignoreCase = { type = "boolean", description = "Case-insensitive search (default: false)" },
        literal = { type = "boolean", description = "Treat pattern as literal string instead of regex (default: false)" },
        context = { type = "number", description = "Number of lines to show before and after each match (default: 0)" },
        limit = { type = "number", description = "Maximum number of matches to return (default: 200)" },
      },
      required = { "pattern" },
    },
    execute = function(_, params, signal, _, ctx)
      local args = { "-rn", "--exclude-dir=.git", params.literal and "-F" or "-E" }
      if params.ignoreCase then args[#args + 1] = "-i" end
      if params.context and params.context > 0 then args[#args + 1] = "-C" .. math.floor(params.context) end
      if params.glob then args[#args + 1] = "--include=" .. params.glob:gsub("^%*%*/", "") end
      args[#args + 1] = "-e"
      args[#args + 1] = params.pattern
      args[#args + 1] = params.path or "."
      local run = pi.exec("grep", args, { cwd = ctx.cwd, signal = signal })
      if run.code == 1 then return reply("No matches found") end
      if run.code ~= 0 then error("grep failed: " .. run.stderr, 0) end
      local limit = math.max(1, math.floor(params.limit or 200))
      local out, matches = {}, 0
      for line in run.stdout:gmatch("[^\n]+") do
        local shown = line:gsub("^%./", "")
        if #shown > 500 then shown = shown:sub(1, 500) .. "..." end
        out[#out + 1] = shown
        if line:find("^.-:%d+:") then matches = matches + 1 end
        if matches >= limit then break end
      end
      return reply(table.concat(out, "\n"))
    end,
  }

  defs.ls = {
    description = "List directory contents with file sizes. Shows files and directories with their sizes. Output limited to 500 entries.",
    parameters = {
      type = "object",
      properties = {
        path = { type = "string", description = "Directory to list (default: current directory)" },
        limit = { type = "number", description = "Maximum number of entries to return (default: 500)" },
      },
    },
    execute = function(_, params)
      local entries, why = pi.fs.list(params.path or ".")
      if not entries then error(tostring(why), 0) end
      if #entries == 0 then return reply("(empty directory)") end
      local limit = math.max(1, math.floor(params.limit or 500))
      local out = {}
      for _, e in ipairs(entries) do
        if #out >= limit then break end
        out[#out + 1] = e.name .. (e.isDir and "/" or "")
      end
      local text = table.concat(out, "\n")
      if #entries > limit then text = text .. string.format("\n\n[%d entries limit reached]", limit) end
      return reply(text)
    end,
  }

  return defs
end

return M
