-- Compact rows for read, bash, edit and write: the path and a line count, the
-- command and its exit status, +added/-removed for edits. Ctrl+O expands a
-- row to show the output (or the diff).
--
--   pi -e extensions/examples/built-in-tool-renderer.lua
--
-- pi cannot hand its own tools to an extension, so the four tools are done
-- here in Lua, following pi's: read takes offset/limit and truncates at 2000
-- lines or 50KB, edit takes edits[] of exact, unique oldText/newText pairs
-- (a single oldText/newText is accepted too).
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

local function split(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  return lines
end

local function text_result(text, details) return { content = { { type = "text", text = text } }, details = details or {} } end

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
  local ui = require("pi.ui")
  local T = function(s) return ui.Text(s, 0, 0) end

  pi.registerTool({
    name = "read",
    label = "read",
    description = "Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent "
      .. "as attachments. For text files, output is truncated to 2000 lines or 50KB (whichever is hit first). Use "
      .. "offset/limit for large files. When you need the full file, continue with offset until complete.",
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
      local out = cut.content
      local details = {}
      if cut.truncated then
        details.truncation = cut
        out = out .. string.format("\n\n[Showing lines %d-%d of %d. Use offset=%d to continue.]",
          first, first + cut.outputLines - 1, #lines, first + cut.outputLines)
      elseif last < #lines then
        out = out .. string.format("\n\n[%d more lines in file. Use offset=%d to continue.]", #lines - last, last + 1)
      end
      return text_result(out, details)
    end,
    renderCall = function(args, theme)
      local text = theme.fg("toolTitle", theme.bold("read ")) .. theme.fg("accent", tostring(args.path or ""))
      local parts = {}
      if args.offset then parts[#parts + 1] = "offset=" .. args.offset end
      if args.limit then parts[#parts + 1] = "limit=" .. args.limit end
      if #parts > 0 then text = text .. theme.fg("dim", " (" .. table.concat(parts, ", ") .. ")") end
      return T(text)
    end,
    renderResult = function(result, options, theme)
      if options.isPartial then return T(theme.fg("warning", "Reading...")) end
      local first = result.content[1]
      if result.content[2] and result.content[2].type == "image" then return T(theme.fg("success", "Image loaded")) end
      if not first or first.type ~= "text" then return T(theme.fg("error", "No content")) end
      local lines = split(first.text)
      local text = theme.fg("success", #lines .. " lines")
      local d = result.details
      if type(d) == "table" and type(d.truncation) == "table" and d.truncation.truncated then
        text = text .. theme.fg("warning", " (truncated from " .. d.truncation.totalLines .. ")")
      end
      if options.expanded then
        for i = 1, math.min(15, #lines) do text = text .. "\n" .. theme.fg("dim", lines[i]) end
        if #lines > 15 then text = text .. "\n" .. theme.fg("muted", "... " .. (#lines - 15) .. " more lines") end
      end
      return T(text)
    end,
  })

  pi.registerTool({
    name = "bash",
    label = "bash",
    description = "Execute a bash command in the current working directory. Returns stdout and stderr. Output is "
      .. "truncated to the last 2000 lines or 50KB (whichever is hit first). Optionally provide a timeout in seconds.",
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
      return text_result(out, cut.truncated and { truncation = cut } or {})
    end,
    renderCall = function(args, theme)
      local cmd = tostring(args.command or "")
      if #cmd > 80 then cmd = cmd:sub(1, 77) .. "..." end
      local text = theme.fg("toolTitle", theme.bold("$ ")) .. theme.fg("accent", cmd)
      if args.timeout then text = text .. theme.fg("dim", " (timeout: " .. args.timeout .. "s)") end
      return T(text)
    end,
    renderResult = function(result, options, theme, context)
      if options.isPartial then return T(theme.fg("warning", "Running...")) end
      local output = result.content[1] and result.content[1].text or ""
      local code = tonumber(output:match("exited with code (%d+)") or output:match("exit code: (%d+)"))
      local count = 0
      for line in (output .. "\n"):gmatch("(.-)\n") do if line:find("%S") then count = count + 1 end end
      local text = (code == nil or code == 0) and theme.fg("success", "done") or theme.fg("error", "exit " .. code)
      text = text .. theme.fg("dim", " (" .. count .. " lines)")
      local d = result.details
      if type(d) == "table" and type(d.truncation) == "table" and d.truncation.truncated then
        text = text .. theme.fg("warning", " [truncated]")
      end
      if options.expanded then
        local lines = split(output)
        for i = 1, math.min(20, #lines) do text = text .. "\n" .. theme.fg("dim", lines[i]) end
        if #lines > 20 then text = text .. "\n" .. theme.fg("muted", "... more output") end
      end
      return T(text)
    end,
  })

  pi.registerTool({
    name = "edit",
    label = "edit",
    description = "Edit a single file using exact text replacement. Every edits[].oldText must match a unique, "
      .. "non-overlapping region of the original file. If two changes affect the same block or nearby lines, merge "
      .. "them into one edit instead of emitting overlapping edits. Do not include large unchanged regions just to "
      .. "connect distant changes.",
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
    renderShell = "self",
    execute = function(_, params)
      local content, why = pi.fs.read(params.path)
      if not content then error(tostring(why), 0) end
      local updated, diff = apply_edits(params.path, content, params.edits)
      pi.fs.write(params.path, updated)
      return text_result(string.format("Successfully replaced %d block(s) in %s.", #params.edits, params.path), { diff = diff })
    end,
    renderCall = function(args, theme)
      return T(theme.fg("toolTitle", theme.bold("edit ")) .. theme.fg("accent", tostring(args.path or "")))
    end,
    renderResult = function(result, options, theme, context)
      if options.isPartial then return T(theme.fg("warning", "Editing...")) end
      local first = result.content[1] and result.content[1].text or ""
      if result.isError or (context and context.isError) or first:find("^Error") then
        return T(theme.fg("error", first:match("^[^\n]*")))
      end
      local d = result.details
      if type(d) ~= "table" or type(d.diff) ~= "string" then return T(theme.fg("success", "Applied")) end
      local lines = split(d.diff)
      local added, removed = 0, 0
      for _, l in ipairs(lines) do
        if l:find("^%+") and not l:find("^%+%+%+") then added = added + 1 end
        if l:find("^%-") and not l:find("^%-%-%-") then removed = removed + 1 end
      end
      local text = theme.fg("success", "+" .. added) .. theme.fg("dim", " / ") .. theme.fg("error", "-" .. removed)
      if options.expanded then
        for i = 1, math.min(30, #lines) do
          local l = lines[i]
          local token = (l:find("^%+") and not l:find("^%+%+%+")) and "success" or ((l:find("^%-") and not l:find("^%-%-%-")) and "error" or "dim")
          text = text .. "\n" .. theme.fg(token, l)
        end
        if #lines > 30 then text = text .. "\n" .. theme.fg("muted", "... " .. (#lines - 30) .. " more diff lines") end
      end
      return T(text)
    end,
  })

  pi.registerTool({
    name = "write",
    label = "write",
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
      return text_result(string.format("Successfully wrote %d bytes to %s", #params.content, params.path))
    end,
    renderCall = function(args, theme)
      local count = #split(tostring(args.content or ""))
      return T(theme.fg("toolTitle", theme.bold("write ")) .. theme.fg("accent", tostring(args.path or ""))
        .. theme.fg("dim", " (" .. count .. " lines)"))
    end,
    renderResult = function(result, options, theme, context)
      if options.isPartial then return T(theme.fg("warning", "Writing...")) end
      local first = result.content[1] and result.content[1].text or ""
      if result.isError or (context and context.isError) or first:find("^Error") then
        return T(theme.fg("error", first:match("^[^\n]*")))
      end
      return T(theme.fg("success", "Written"))
    end,
  })
end
