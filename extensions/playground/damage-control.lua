-- damage-control: every tool call is checked against a declarative rule set
-- (damage-control-rules.lua beside this file, plus .pi/damage-control-rules.lua
-- in the project when present) before it runs:
--   bash commands against dangerous-command patterns (refused, or asked about);
--   every path a tool touches against zero-access paths (secrets);
--   write/edit and bash writes against read-only paths;
--   bash rm/mv against no-delete paths.
-- A refused call gets `{block = true, reason = ...}`, so the model sees why;
-- the footer counts refusals and `/damage-control` lists them. Without a UI
-- (print and json mode) rules that would ask refuse instead.
--
--   pi -e extensions/playground/damage-control.lua

local bundled = require("damage-control-rules")

local PROJECT_RULES = ".pi/damage-control-rules.lua"
local PATH_CATEGORIES = { "zeroAccessPaths", "readOnlyPaths", "noDeletePaths", "allowPaths" }
local PATH_TOOLS = { read = true, write = true, edit = true, grep = true, find = true, ls = true }
local WRITE_TOOLS = { write = true, edit = true }
local HOME = os.getenv("HOME") or os.getenv("USERPROFILE") or ""

local ADVICE = "Do not try to get around this with other commands, paths or tools that reach the same "
  .. "result. Tell the user exactly what was blocked and ask how they want to proceed."

---------------------------------------------------------------------------
-- Paths

local function expand_home(path)
  if path == "~" or path:sub(1, 2) == "~/" then
    return HOME .. path:sub(2)
  end
  local rest = path:match("^%$HOME(.*)$") or path:match("^%${HOME}(.*)$")
  if rest and (rest == "" or rest:sub(1, 1) == "/") then
    return HOME .. rest
  end
  return path
end

-- Path components of `path` made absolute against `cwd`, with "." and ".."
-- folded away.
local function components(path, cwd)
  path = expand_home(path)
  if path:sub(1, 1) ~= "/" then
    path = cwd .. "/" .. path
  end
  local parts = {}
  for part in path:gmatch("[^/]+") do
    if part == ".." then
      parts[#parts] = nil
    elseif part ~= "." then
      parts[#parts + 1] = part
    end
  end
  return parts
end

local function glob_pattern(glob)
  local escaped = glob:gsub("[%^%$%(%)%%%.%[%]%+%-]", "%%%0")
  return "^" .. escaped:gsub("%*", "[^/]*"):gsub("%?", "[^/]") .. "$"
end

-- A path rule as a function of path components.
local function compile_path(rule)
  local is_dir = rule:sub(-1) == "/"
  local body = expand_home(is_dir and rule:sub(1, -2) or rule)
  local absolute = body:sub(1, 1) == "/"
  local want = {}
  for part in body:gmatch("[^/]+") do
    want[#want + 1] = glob_pattern(part)
  end
  local n = #want
  local function run_matches(parts, first)
    for k = 1, n do
      if not parts[first + k - 1] or not parts[first + k - 1]:find(want[k]) then
        return false
      end
    end
    return true
  end
  return function(parts)
    if n == 0 or #parts < n then
      return false
    end
    if absolute then
      return (is_dir or #parts == n) and run_matches(parts, 1)
    end
    if not is_dir then
      return run_matches(parts, #parts - n + 1)
    end
    for first = 1, #parts - n + 1 do
      if run_matches(parts, first) then
        return true
      end
    end
    return false
  end
end

---------------------------------------------------------------------------
-- Rules

local function flatten(pattern, out)
  if type(pattern) == "string" then
    out[#out + 1] = pattern
  elseif type(pattern) == "table" then
    for _, p in ipairs(pattern) do
      flatten(p, out)
    end
  end
  return out
end

-- What is wrong with Lua pattern `p`, or nil. (string.find only notices a
-- malformed pattern when matching reaches the bad part.)
local function pattern_error(p)
  local i, depth = 1, 0
  while i <= #p do
    local c = p:sub(i, i)
    if c == "%" then
      local after = p:sub(i + 1, i + 1)
      if after == "" then
        return "it ends with a lone %"
      elseif after == "b" then
        if #p < i + 3 then
          return "%b needs two characters"
        end
        i = i + 4
      elseif after == "f" then
        if p:sub(i + 2, i + 2) ~= "[" then
          return "%f needs a [set]"
        end
        i = i + 2
      else
        i = i + 2
      end
    elseif c == "[" then
      local j = i + 1
      if p:sub(j, j) == "^" then
        j = j + 1
      end
      if p:sub(j, j) == "]" then
        j = j + 1
      end
      while p:sub(j, j) ~= "]" do
        if j > #p then
          return "a [set] is not closed"
        end
        j = j + (p:sub(j, j) == "%" and 2 or 1)
      end
      i = j + 1
    else
      if c == "(" then
        depth = depth + 1
      elseif c == ")" then
        depth = depth - 1
        if depth < 0 then
          return "a ) has no ("
        end
      end
      i = i + 1
    end
  end
  if depth ~= 0 then
    return "a ( is not closed"
  end
  return nil
end

-- Check and compile a rule table; errors name the file and the rule.
local function compile(rules, origin)
  if type(rules) ~= "table" then
    error(origin .. ": must return a table of rules, got " .. type(rules), 0)
  end
  local out = { bash = {} }
  for i, rule in ipairs(rules.bashToolPatterns or {}) do
    local where = origin .. ": bashToolPatterns[" .. i .. "]"
    if type(rule) ~= "table" or type(rule.reason) ~= "string" then
      error(where .. " needs a `reason` string", 0)
    end
    local patterns = flatten(rule.pattern, {})
    if #patterns == 0 then
      error(where .. " (" .. rule.reason .. ") needs a `pattern`: a Lua pattern or a list of them", 0)
    end
    for _, p in ipairs(patterns) do
      local problem = pattern_error(p)
      if problem then
        error(where .. " (" .. rule.reason .. "): bad Lua pattern " .. p .. ": " .. problem, 0)
      end
    end
    out.bash[#out.bash + 1] = { patterns = patterns, reason = rule.reason, ask = rule.ask == true, nocase = rule.nocase == true }
  end
  for _, category in ipairs(PATH_CATEGORIES) do
    out[category] = {}
    for i, rule in ipairs(rules[category] or {}) do
      if type(rule) ~= "string" or rule == "" then
        error(origin .. ": " .. category .. "[" .. i .. "] must be a path string", 0)
      end
      out[category][#out[category] + 1] = { text = rule, match = compile_path(rule) }
    end
  end
  return out
end

local function merge(base, extra)
  for key, list in pairs(extra) do
    for _, rule in ipairs(list) do
      table.insert(base[key], rule)
    end
  end
end

---------------------------------------------------------------------------
-- Bash commands

local DELETE_VERBS = { rm = true, rmdir = true, unlink = true, shred = true }
local WRITE_ALL_VERBS = {
  truncate = true, touch = true, chmod = true, chown = true, chgrp = true, tee = true, mkdir = true, ln = true,
}
local WRITE_LAST_VERBS = { cp = true, mv = true, install = true, rsync = true, scp = true }
local PREFIXES = { sudo = true, doas = true, env = true, command = true, nohup = true, time = true, nice = true, exec = true, xargs = true }

-- Words of one simple command, quotes dropped.
local function words(segment)
  local out = {}
  for word in segment:gsub("[\"'`]", ""):gmatch("%S+") do
    out[#out + 1] = word
  end
  return out
end

-- Paths a command writes and deletes (a heuristic over the common tools).
local function targets(command)
  local writes, deletes = {}, {}
  for target in command:gmatch("%d?>>?%s*([^%s;&|<>]+)") do
    if target:sub(1, 1) ~= "&" then
      writes[#writes + 1] = target
    end
  end
  for segment in command:gmatch("[^;&|\n]+") do
    local w = words((segment:gsub("%d?>>?%s*[^%s;&|<>]+", "")))
    local i = 1
    while w[i] and (PREFIXES[w[i]] or w[i]:find("^%w+=") or (i > 1 and PREFIXES[w[i - 1]] and w[i]:sub(1, 1) == "-")) do
      i = i + 1
    end
    local verb = w[i] and w[i]:match("[^/]+$")
    if verb == "git" and w[i + 1] == "rm" then
      verb, i = "rm", i + 1
    end
    local args, in_place = {}, false
    local options_done = false
    for j = i + 1, #w do
      local word = w[j]
      if not options_done and word == "--" then
        options_done = true
      elseif not options_done and word:sub(1, 1) == "-" then
        in_place = in_place or word:find("^%-%a*i") ~= nil or word == "--in-place"
      else
        args[#args + 1] = word:match("^of=(.+)$") or word
      end
    end
    if verb and WRITE_ALL_VERBS[verb] then
      for _, a in ipairs(args) do
        writes[#writes + 1] = a
      end
    elseif verb and WRITE_LAST_VERBS[verb] and #args > 0 then
      writes[#writes + 1] = args[#args]
    elseif (verb == "sed" or verb == "perl") and in_place then
      for k = (verb == "sed" and 2 or 1), #args do
        writes[#writes + 1] = args[k]
      end
    elseif verb == "dd" then
      for _, a in ipairs(args) do
        if a:find("^/") or a:find("^[^=]+$") then
          writes[#writes + 1] = a
        end
      end
    end
    if verb and DELETE_VERBS[verb] then
      for _, a in ipairs(args) do
        deletes[#deletes + 1] = a
      end
    elseif verb == "mv" then
      for k = 1, #args - 1 do
        deletes[#deletes + 1] = args[k]
      end
    end
  end
  return writes, deletes
end

-- Every word of a command that could be a path.
local function path_words(command)
  local out = {}
  for word in command:gmatch("[^%s;&|<>()=\"'`,]+") do
    if word:sub(1, 1) ~= "-" then
      out[#out + 1] = word
    end
  end
  return out
end

---------------------------------------------------------------------------
-- The extension

return function(pi)
  local rules = compile(bundled, "damage-control-rules.lua")
  local project_error
  local project_text = pi.fs.read(PROJECT_RULES)
  if project_text then
    local env = { string = string, table = table, ipairs = ipairs, pairs = pairs, type = type, tostring = tostring }
    local chunk, err = load(project_text, "@" .. PROJECT_RULES, "t", env)
    local ok, extra = false, err
    if chunk then
      ok, extra = pcall(chunk)
    end
    if ok then
      ok, extra = pcall(compile, extra, PROJECT_RULES)
    end
    if ok then
      merge(rules, extra)
    else
      project_error = tostring(extra) .. "\nFix " .. PROJECT_RULES .. "; only the bundled rules apply until then."
    end
  end

  local blocked = {} -- {tool, reason} of every refused call
  local cwd = "."

  local function first_match(list, parts, except)
    for _, rule in ipairs(list) do
      if rule.match(parts) then
        for _, allow in ipairs(except or {}) do
          if allow.match(parts) then
            return nil
          end
        end
        return rule.text
      end
    end
    return nil
  end

  local function check_path(path, category)
    local parts = components(path, cwd)
    if category == "zeroAccessPaths" then
      return first_match(rules.zeroAccessPaths, parts, rules.allowPaths)
    end
    return first_match(rules[category], parts)
  end

  local function block(event, ctx, reason)
    blocked[#blocked + 1] = { tool = event.toolName, reason = reason }
    ctx.ui.setStatus("damage-control", "🛡 " .. #blocked .. " blocked")
    ctx.ui.notify("damage-control blocked " .. event.toolName .. ": " .. reason, "warning")
    pi.appendEntry("damage-control-log", { toolName = event.toolName, input = event.input, reason = reason })
    return { block = true, reason = "🛑 Blocked by damage-control: " .. reason .. "\n\n" .. ADVICE }
  end

  -- Pattern rules: a refusing match wins, else one question for every asking match.
  local function check_patterns(event, ctx, command)
    local subject = ";" .. command:gsub("\n", ";") .. " "
    local lower = subject:lower()
    local asks = {}
    for _, rule in ipairs(rules.bash) do
      local text = rule.nocase and lower or subject
      for _, p in ipairs(rule.patterns) do
        if text:find(p) then
          if not rule.ask then
            return block(event, ctx, rule.reason)
          end
          asks[#asks + 1] = rule.reason
          break
        end
      end
    end
    if #asks == 0 then
      return nil
    end
    local what = table.concat(asks, "; ")
    if not ctx.hasUI then
      return block(event, ctx, what .. " (needs the user's confirmation, and there is no UI to ask)")
    end
    if not ctx.ui.confirm("damage-control: " .. what, command .. "\n\nRun it anyway?") then
      return block(event, ctx, what .. " (the user declined)")
    end
    return nil
  end

  local function check_bash(event, ctx)
    local command = tostring(event.input.command or "")
    local result = check_patterns(event, ctx, command)
    if result then
      return result
    end
    for _, word in ipairs(path_words(command)) do
      local rule = check_path(word, "zeroAccessPaths")
      if rule then
        return block(event, ctx, "the command touches " .. word .. ", a zero-access path (" .. rule .. ")")
      end
    end
    local writes, deletes = targets(command)
    for _, path in ipairs(deletes) do
      local rule = check_path(path, "noDeletePaths")
      if rule then
        return block(event, ctx, path .. " must not be deleted or moved (" .. rule .. ")")
      end
      -- Removing a whole generated folder (node_modules/, dist/) is fine;
      -- removing system files (absolute read-only rules) is not.
      rule = check_path(path, "readOnlyPaths")
      if rule and rule:find("^[/~]") then
        return block(event, ctx, path .. " is read-only (" .. rule .. ")")
      end
    end
    for _, path in ipairs(writes) do
      local rule = check_path(path, "readOnlyPaths")
      if rule then
        return block(event, ctx, path .. " is read-only (" .. rule .. ")")
      end
    end
    return nil
  end

  local function check_tool(event, ctx)
    local input = event.input or {}
    local path = input.path or input.file_path
    if type(path) ~= "string" or path == "" then
      return nil
    end
    local rule = check_path(path, "zeroAccessPaths")
    if rule then
      return block(event, ctx, event.toolName .. " on " .. path .. ": zero-access path (" .. rule .. ")")
    end
    if WRITE_TOOLS[event.toolName] then
      rule = check_path(path, "readOnlyPaths")
      if rule then
        return block(event, ctx, path .. " is read-only (" .. rule .. ")")
      end
    end
    return nil
  end

  pi.on("session_start", function(_, ctx)
    cwd = ctx.cwd
    ctx.ui.setStatus("damage-control", "🛡 " .. #blocked .. " blocked")
    if project_error then
      ctx.ui.notify("damage-control: " .. project_error, "error")
    end
  end)

  pi.on("tool_call", function(event, ctx)
    cwd = ctx.cwd
    if event.toolName == "bash" then
      return check_bash(event, ctx)
    elseif PATH_TOOLS[event.toolName] then
      return check_tool(event, ctx)
    end
    return nil
  end)

  pi.registerCommand("damage-control", {
    description = "Show the damage-control rule counts and the calls it blocked",
    handler = function(_, ctx)
      local lines = {
        "damage-control: " .. #rules.bash .. " command rules, " .. #rules.zeroAccessPaths .. " zero-access, "
          .. #rules.readOnlyPaths .. " read-only, " .. #rules.noDeletePaths .. " no-delete paths",
      }
      if project_error then
        lines[#lines + 1] = project_error
      end
      lines[#lines + 1] = #blocked .. " blocked this session"
      for _, b in ipairs(blocked) do
        lines[#lines + 1] = "  " .. b.tool .. ": " .. b.reason
      end
      ctx.ui.notify(table.concat(lines, "\n"), "info")
    end,
  })
end
