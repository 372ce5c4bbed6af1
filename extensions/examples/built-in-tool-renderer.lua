-- Compact rows for read, bash, edit and write: the path and a line count, the
-- command and its exit status, +added/-removed for edits. Ctrl+O expands a
-- row to show the output (or the diff).
--
--   pi -e extensions/examples/built-in-tool-renderer.lua
--
-- The tools are pi's own (pi.createReadTool and friends), so they behave exactly
-- like the built-ins; only their rows are drawn here.

local function split(text)
  local lines = {}
  for line in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
  return lines
end

-- `def` with the renderers of `renderers` added.
local function with_renderers(def, renderers)
  for key, value in pairs(renderers) do def[key] = value end
  return def
end

local function setup(pi)
  local ui = require("pi.ui")
  local T = function(s) return ui.Text(s, 0, 0) end

  pi.registerTool(with_renderers(pi.createReadTool(), {
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
  }))

  pi.registerTool(with_renderers(pi.createBashTool(), {
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
  }))

  pi.registerTool(with_renderers(pi.createEditTool(), {
    renderShell = "self",
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
  }))

  pi.registerTool(with_renderers(pi.createWriteTool(), {
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
  }))
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { read = { "." }, write = { "." } }, exec = { "bash" } },
  setup = setup,
}
