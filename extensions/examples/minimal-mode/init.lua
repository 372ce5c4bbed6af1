-- Minimal tool rows: collapsed, a tool shows only its call (the command or
-- path, and a count for find/grep/ls); Ctrl+O expands rows to the full output.
--
--   pi -e extensions/examples/minimal-mode
--
-- pi cannot hand its built-in tools to Lua, so read, bash, edit, write, find,
-- grep and ls are done in Lua here (tools.lua), with pi's parameters.
local tools = require("tools")

local function shorten(path)
  local home = os.getenv("HOME")
  if home and home ~= "" and path:sub(1, #home) == home then return "~" .. path:sub(#home + 1) end
  return path
end

local function setup(pi)
  local ui = require("pi.ui")
  local defs = tools.definitions(pi)
  local empty = function() return ui.Text("", 0, 0) end

  local function body(result)
    for _, block in ipairs(result.content or {}) do
      if block.type == "text" then return block.text end
    end
  end

  local function output(result, theme, trim)
    local text = body(result)
    if not text then return empty() end
    if trim then text = text:match("^%s*(.-)%s*$") end
    if text == "" then return empty() end
    local lines = {}
    for i, line in ipairs(tools.split(text)) do lines[i] = theme.fg("toolOutput", line) end
    return ui.Text("\n" .. table.concat(lines, "\n"), 0, 0)
  end

  -- Collapsed find/grep/ls rows: "→ N files" (or matches, entries).
  local function counted(noun)
    return function(result, options, theme)
      if options.expanded then return output(result, theme, true) end
      local text = body(result)
      local count = 0
      for line in ((text or ""):match("^%s*(.-)%s*$") .. "\n"):gmatch("(.-)\n") do
        if line ~= "" then count = count + 1 end
      end
      if count == 0 then return empty() end
      return ui.Text(theme.fg("muted", " → " .. count .. " " .. noun), 0, 0)
    end
  end

  local function title(theme, name) return theme.fg("toolTitle", theme.bold(name)) end
  local function path_of(theme, path)
    path = shorten(path or "")
    return path ~= "" and theme.fg("accent", path) or theme.fg("toolOutput", "...")
  end

  local views = {
    read = {
      renderCall = function(args, theme)
        local text = title(theme, "read") .. " " .. path_of(theme, args.path)
        if args.offset or args.limit then
          local first = args.offset or 1
          text = text .. theme.fg("warning", ":" .. first .. (args.limit and ("-" .. (first + args.limit - 1)) or ""))
        end
        return ui.Text(text, 0, 0)
      end,
      renderResult = function(result, options, theme)
        if not options.expanded then return empty() end
        return output(result, theme, false)
      end,
    },
    bash = {
      renderCall = function(args, theme)
        local suffix = args.timeout and theme.fg("muted", " (timeout " .. args.timeout .. "s)") or ""
        return ui.Text(title(theme, "$ " .. (args.command or "...")) .. suffix, 0, 0)
      end,
      renderResult = function(result, options, theme)
        if not options.expanded then return empty() end
        return output(result, theme, true)
      end,
    },
    write = {
      renderCall = function(args, theme)
        local count = args.content and #tools.split(args.content) or 0
        return ui.Text(title(theme, "write") .. " " .. path_of(theme, args.path)
          .. (count > 0 and theme.fg("muted", " (" .. count .. " lines)") or ""), 0, 0)
      end,
      renderResult = function(result, options, theme)
        if not options.expanded then return empty() end
        local text = body(result)
        return (text and text ~= "") and ui.Text("\n" .. theme.fg("error", text), 0, 0) or empty()
      end,
    },
    edit = {
      renderCall = function(args, theme)
        return ui.Text(title(theme, "edit") .. " " .. path_of(theme, args.path), 0, 0)
      end,
      renderResult = function(result, options, theme)
        if not options.expanded then return empty() end
        local text = body(result)
        if not text then return empty() end
        local token = (text:find("Error") or text:find("error")) and "error" or "toolOutput"
        return ui.Text("\n" .. theme.fg(token, text), 0, 0)
      end,
    },
    find = {
      renderCall = function(args, theme)
        local text = title(theme, "find") .. " " .. theme.fg("accent", args.pattern or "")
          .. theme.fg("toolOutput", " in " .. shorten(args.path or "."))
        if args.limit then text = text .. theme.fg("toolOutput", " (limit " .. args.limit .. ")") end
        return ui.Text(text, 0, 0)
      end,
      renderResult = counted("files"),
    },
    grep = {
      renderCall = function(args, theme)
        local text = title(theme, "grep") .. " " .. theme.fg("accent", "/" .. (args.pattern or "") .. "/")
          .. theme.fg("toolOutput", " in " .. shorten(args.path or "."))
        if args.glob then text = text .. theme.fg("toolOutput", " (" .. args.glob .. ")") end
        if args.limit then text = text .. theme.fg("toolOutput", " limit " .. args.limit) end
        return ui.Text(text, 0, 0)
      end,
      renderResult = counted("matches"),
    },
    ls = {
      renderCall = function(args, theme)
        local text = title(theme, "ls") .. " " .. theme.fg("accent", shorten(args.path or "."))
        if args.limit then text = text .. theme.fg("toolOutput", " (limit " .. args.limit .. ")") end
        return ui.Text(text, 0, 0)
      end,
      renderResult = counted("entries"),
    },
  }

  for _, name in ipairs({ "read", "bash", "write", "edit", "find", "grep", "ls" }) do
    local def = defs[name]
    pi.registerTool({
      name = name,
      label = name,
      description = def.description,
      parameters = def.parameters,
      prepareArguments = def.prepareArguments,
      execute = def.execute,
      renderCall = views[name].renderCall,
      renderResult = views[name].renderResult,
    })
  end
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = { read = { "." }, write = { "." } },
    exec = { "bash", "grep" },
    env = { "HOME" },
  },
  setup = setup,
}
