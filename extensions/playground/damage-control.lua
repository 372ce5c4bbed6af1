-- damage-control: every tool call is checked against a declarative rule set
-- (damage-control-rules.yaml beside this file, plus ~/.pi/agent/damage-control-rules.yaml
-- and .pi/damage-control-rules.yaml in the project when present) before it runs:
--   bash commands against dangerous-command regexes (refused, or asked about);
--   every path a tool touches against zero-access paths (secrets);
--   write/edit and bash writes against read-only paths;
--   bash rm/mv against no-delete paths.
-- It is a provider of pi's permission policy: it answers the `permission` event, and a
-- refused call gets `{decision = "deny", reason = ...}` (pi names it in the tool error)
-- and the turn is aborted, so the model stops and you decide; `/damage-control` lists
-- the rules and the refusals. Bash patterns are tested against the whole command and
-- against each simple command pi's shell parser found in it (`sudo X`, `bash -c "X"`,
-- `a && X` each give `X`).
-- Without a UI (print and json mode) rules that would ask refuse instead.
--
--   pi -e extensions/playground/damage-control.lua

local defaults = require("lib.defaults")
local tr = nil -- set in the factory (needs pi)

local RULES_FILE = "damage-control-rules.yaml"
local PROJECT_RULES = ".pi/" .. RULES_FILE
local PATH_CATEGORIES = { "zeroAccessPaths", "readOnlyPaths", "noDeletePaths", "allowPaths" }
local PATH_CATEGORIES_SET = { zeroAccessPaths = true, readOnlyPaths = true, noDeletePaths = true, allowPaths = true }
local PATH_TOOLS = { read = true, write = true, edit = true, grep = true, find = true, ls = true }
local WRITE_TOOLS = { write = true, edit = true }
local HOME = os.getenv("HOME") or os.getenv("USERPROFILE") or ""


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

-- The line of `text` on which `needle` first appears (for error messages).
local function line_of(text, needle)
  if type(needle) ~= "string" or needle == "" then return nil end
  local at = text:find(needle, 1, true)
  if not at then return nil end
  local _, breaks = text:sub(1, at):gsub("\n", "")
  return breaks + 1
end

-- Check and compile the decoded rules of `origin` (its `text` for line numbers).
-- Errors are "file:line: what is wrong".
local function compile(pi, data, origin, text)
  local function fail(needle, message)
    local line = line_of(text, needle)
    error(origin .. (line and (":" .. line) or "") .. ": " .. message, 0)
  end
  if data == nil then
    data = {}
  end
  if type(data) ~= "table" then
    fail(nil, tr("damage-control.error.not-map"))
  end
  for key in pairs(data) do
    if key ~= "bashToolPatterns" and key ~= "allowPaths" and not PATH_CATEGORIES_SET[key] then
      fail(tostring(key) .. ":", tr("damage-control.error.unknown-key", { key = tostring(key) }))
    end
  end
  local out = { bash = {} }
  for i, rule in ipairs(data.bashToolPatterns or {}) do
    local where = "bashToolPatterns[" .. i .. "]"
    if type(rule) ~= "table" or type(rule.pattern) ~= "string" or rule.pattern == "" then
      fail(type(rule) == "table" and rule.reason or nil, tr("damage-control.error.no-pattern", { rule = where }))
    end
    if type(rule.reason) ~= "string" or rule.reason == "" then
      fail(rule.pattern, tr("damage-control.error.no-reason", { rule = where }))
    end
    local re, why = pi.regex.new(rule.pattern)
    if not re then
      fail(rule.pattern, where .. ": " .. why)
    end
    out.bash[#out.bash + 1] = { re = re, pattern = rule.pattern, reason = rule.reason, ask = rule.ask == true }
  end
  for _, category in ipairs(PATH_CATEGORIES) do
    out[category] = {}
    for i, rule in ipairs(data[category] or {}) do
      if type(rule) ~= "string" or rule == "" then
        fail(category .. ":", tr("damage-control.error.bad-path", { rule = category .. "[" .. i .. "]" }))
      end
      out[category][#out[category] + 1] = { text = rule, match = compile_path(rule) }
    end
  end
  return out
end

-- Add `extra`'s rules to `base`. A bash rule whose pattern is already a default
-- rule and says `ask: true` turns that refusal into a question (the only way a
-- rules file may relax a default); every other rule is added.
local function merge(base, extra)
  for _, rule in ipairs(extra.bash) do
    local same
    for _, existing in ipairs(base.bash) do
      if existing.pattern == rule.pattern then same = existing end
    end
    if same then
      same.ask = same.ask or rule.ask
      if rule.ask then same.reason = rule.reason end
    else
      table.insert(base.bash, rule)
    end
  end
  for _, category in ipairs(PATH_CATEGORIES) do
    for _, rule in ipairs(extra[category]) do
      table.insert(base[category], rule)
    end
  end
end

local function agent_dir()
  local dir = os.getenv("PI_CODING_AGENT_DIR")
  if dir and dir ~= "" then return dir end
  return HOME ~= "" and (HOME .. "/.pi/agent") or nil
end

-- Read and compile one rules file; nil when it does not exist.
local function load_file(pi, path, label)
  local text = pi.fs.read(path)
  if not text then return nil end
  local data, why = pi.yaml.decode(text)
  if why then
    local line, rest = why:match("line (%d+), column %d+: (.*)$")
    error(label .. (line and (":" .. line .. ": " .. rest) or (": " .. why)), 0)
  end
  return compile(pi, data, label, text)
end

-- The bundled rules, then the global and the project file added to them.
-- Returns the rules, how many came from where, and the errors of broken files.
local function load_rules(pi)
  local rules = load_file(pi, pi.extensionDir .. "/" .. RULES_FILE, RULES_FILE)
  local errors, sources = {}, {}
  local global = agent_dir()
  local extras = {}
  if global then extras[#extras + 1] = { global .. "/" .. RULES_FILE, "~/.pi/agent/" .. RULES_FILE } end
  extras[#extras + 1] = { PROJECT_RULES, PROJECT_RULES }
  for _, extra in ipairs(extras) do
    local ok, result = pcall(load_file, pi, extra[1], extra[2])
    if not ok then
      errors[#errors + 1] = tostring(result)
    elseif result then
      merge(rules, result)
      sources[#sources + 1] = extra[2]
    end
  end
  return rules, sources, errors
end

local function count(rules)
  return #rules.bash + #rules.zeroAccessPaths + #rules.readOnlyPaths + #rules.noDeletePaths
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

---@param pi pi.API
local function setup(pi)
  tr = require("lib.i18n").load(pi)
  defaults.apply(pi, "damage-control")
  -- The bundled file is part of the extension: if it is broken, loading fails
  -- with its file and line. A broken project or global file is reported and
  -- the rules that did load stay in force.
  local rules, sources, load_errors = load_rules(pi)

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

  local function status(ctx)
    ctx.ui.setStatus("damage-control", tr("damage-control.status", { rules = count(rules), count = #blocked }))
  end

  -- Refuse the call, abort the turn (the model stops; you decide what next) and
  -- record it.
  local function block(event, ctx, reason, action)
    blocked[#blocked + 1] = { tool = event.toolName, reason = reason }
    status(ctx)
    ctx.ui.notify(tr("damage-control.blocked", { tool = event.toolName, reason = reason }), "warning")
    pi.appendEntry("damage-control-log", {
      toolName = event.toolName, input = event.input, reason = reason, action = action or "blocked",
    })
    ctx.abort()
    return { decision = "deny", reason = tr("damage-control.reason", { reason = reason }) }
  end

  -- Pattern rules, over the command and each command in it: a refusing match wins,
  -- else one question for every asking match.
  local function check_patterns(event, ctx, command)
    local texts = { command }
    for _, part in ipairs(event.commands or {}) do
      if part ~= command then
        texts[#texts + 1] = part
      end
    end
    local asks, asked = {}, {}
    for _, rule in ipairs(rules.bash) do
      for _, text in ipairs(texts) do
        local ok, hit = pcall(rule.re.test, text)
        if ok and hit then
          if not rule.ask then
            return block(event, ctx, rule.reason)
          end
          if not asked[rule.reason] then
            asked[rule.reason] = true
            asks[#asks + 1] = rule.reason
          end
        end
      end
    end
    if #asks == 0 then
      return nil
    end
    local what = table.concat(asks, "; ")
    if not ctx.hasUI then
      return block(event, ctx, tr("damage-control.no-ui", { reason = what }), "blocked_without_ui")
    end
    local no, yes = tr("damage-control.ask.no"), tr("damage-control.ask.yes")
    local answer = ctx.ui.select(
      tr("damage-control.ask.title", { reason = what, command = command }),
      { no, yes }
    )
    if answer ~= yes then
      return block(event, ctx, tr("damage-control.declined", { reason = what }), "blocked_by_user")
    end
    pi.appendEntry("damage-control-log", {
      toolName = event.toolName, input = event.input, reason = what, action = "confirmed_by_user",
    })
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
        return block(event, ctx, tr("damage-control.zero-access", { path = word, rule = rule }))
      end
    end
    local writes, deletes = targets(command)
    for _, path in ipairs(deletes) do
      local rule = check_path(path, "noDeletePaths")
      if rule then
        return block(event, ctx, tr("damage-control.no-delete", { path = path, rule = rule }))
      end
      -- Removing a whole generated folder (node_modules/, dist/) is fine;
      -- removing system files (absolute read-only rules) is not.
      rule = check_path(path, "readOnlyPaths")
      if rule and rule:find("^[/~]") then
        return block(event, ctx, tr("damage-control.read-only", { path = path, rule = rule }))
      end
    end
    for _, path in ipairs(writes) do
      local rule = check_path(path, "readOnlyPaths")
      if rule then
        return block(event, ctx, tr("damage-control.read-only", { path = path, rule = rule }))
      end
    end
    return nil
  end

  local function check_tool(event, ctx)
    local input = event.input or {}
    local paths = { input.path or input.file_path }
    if event.toolName == "grep" and type(input.glob) == "string" then
      paths[#paths + 1] = input.glob
    end
    for _, path in ipairs(paths) do
      if type(path) == "string" and path ~= "" then
        local rule = check_path(path, "zeroAccessPaths")
        if rule then
          return block(event, ctx, tr("damage-control.zero-access", { path = path, rule = rule }))
        end
      end
    end
    local path = paths[1]
    if WRITE_TOOLS[event.toolName] and type(path) == "string" and path ~= "" then
      local rule = check_path(path, "readOnlyPaths")
      if rule then
        return block(event, ctx, tr("damage-control.read-only", { path = path, rule = rule }))
      end
    end
    return nil
  end

  pi.on("session_start", function(_, ctx)
    cwd = ctx.cwd
    status(ctx)
    local from = #sources > 0 and table.concat(sources, ", ") or tr("damage-control.source.bundled")
    ctx.ui.notify(tr("damage-control.loaded", { count = count(rules), sources = from }), "info")
    for _, err in ipairs(load_errors) do
      ctx.ui.notify(tr("damage-control.load-error", { error = err }), "error")
    end
  end)

  pi.on("permission", function(event, ctx)
    cwd = ctx.cwd
    if event.toolName == "bash" then
      return check_bash(event, ctx)
    elseif PATH_TOOLS[event.toolName] then
      return check_tool(event, ctx)
    end
    return nil
  end)

  pi.registerCommand("damage-control", {
    description = tr("damage-control.command"),
    handler = function(_, ctx)
      local asking = 0
      for _, rule in ipairs(rules.bash) do
        if rule.ask then asking = asking + 1 end
      end
      local lines = {
        tr("damage-control.summary", {
          bash = #rules.bash, ask = asking, zero = #rules.zeroAccessPaths,
          readonly = #rules.readOnlyPaths, nodelete = #rules.noDeletePaths,
        }),
      }
      for _, err in ipairs(load_errors) do
        lines[#lines + 1] = tr("damage-control.load-error", { error = err })
      end
      lines[#lines + 1] = tr("damage-control.blocked-count", { count = #blocked })
      for _, b in ipairs(blocked) do
        lines[#lines + 1] = "  " .. b.tool .. ": " .. b.reason
      end
      ctx.ui.notify(table.concat(lines, "\n"), "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = {
      -- Agent definitions of the project, pi and other agents.
      read = { ".", "$agent", "$extension", "~/.pi", "~/.claude", "~/.gemini", "~/.codex" },
    },
    env = { "HOME", "USERPROFILE", "PI_CODING_AGENT_DIR" },
  },
  setup = setup,
}
