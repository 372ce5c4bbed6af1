-- The test vocabulary of `pi test`: describe, it, before_each, after_each and expect.
-- Loaded into each test file's own Lua state before the file runs.

local SOURCE = __TEST_SOURCE
local native = pi.test
local tests = {}
local scopes = { { before = {}, after = {} } }
local origins = setmetatable({}, { __mode = "k" })
local Failure = {}

local function test_line()
  for level = 2, 60 do
    local info = debug.getinfo(level, "Sl")
    if not info then break end
    if info.source == SOURCE then return info.currentline end
  end
  return nil
end

local function fail(message, from)
  error(setmetatable({ message = message, line = test_line(), from = from }, Failure), 0)
end

function describe(name, body)
  local scope = { name = name, before = {}, after = {} }
  table.insert(scopes, scope)
  body()
  table.remove(scopes)
end

function before_each(fn) table.insert(scopes[#scopes].before, fn) end
function after_each(fn) table.insert(scopes[#scopes].after, fn) end

function it(name, body)
  local names, chain = {}, {}
  for i, scope in ipairs(scopes) do
    if scope.name then table.insert(names, scope.name) end
    chain[i] = scope
  end
  table.insert(names, name)
  table.insert(tests, {
    name = table.concat(names, " › "),
    body = body,
    chain = chain,
    line = debug.getinfo(2, "l").currentline,
  })
end

-- Values as text: strings quoted, tables with sorted keys, nested tables indented.
local function render(value, indent, seen)
  indent = indent or ""
  seen = seen or {}
  if type(value) == "string" then return string.format("%q", value) end
  if type(value) ~= "table" then return tostring(value) end
  if seen[value] then return "<cycle>" end
  seen[value] = true
  local keys = {}
  for k in pairs(value) do table.insert(keys, k) end
  if #keys == 0 then seen[value] = nil return "{}" end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "number" or type(a) == "string") then return a < b end
    return type(a) < type(b)
  end)
  local inner = indent .. "  "
  local lines = {}
  -- A list (keys 1..n) shows its items alone, one a line.
  local list = #keys == #value
  for _, k in ipairs(keys) do
    local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or ("[" .. render(k) .. "]")
    local prefix = list and "" or (key .. " = ")
    table.insert(lines, inner .. prefix .. render(value[k], inner, seen) .. ",")
  end
  seen[value] = nil
  return "{\n" .. table.concat(lines, "\n") .. "\n" .. indent .. "}"
end

local function equal(a, b)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  for k, v in pairs(a) do
    if not equal(v, b[k]) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

-- Every key of `part` is in `whole` with an equal (or, for tables, matching) value.
local function matches(whole, part)
  if type(part) ~= "table" or type(whole) ~= "table" then return equal(whole, part) end
  for k, v in pairs(part) do
    if not matches(whole[k], v) then return false end
  end
  return true
end

local TYPES = { string = true, number = true, boolean = true, table = true, ["function"] = true, ["nil"] = true }

-- Where `value` differs from `shape`: a list of "path: why".
local function shape_errors(value, shape, path, out)
  if type(shape) == "table" then
    if type(value) ~= "table" then
      table.insert(out, (path ~= "" and path or "value") .. ": expected a table, got " .. type(value))
      return out
    end
    for k, want in pairs(shape) do
      shape_errors(value[k], want, path == "" and tostring(k) or (path .. "." .. tostring(k)), out)
    end
  elseif type(shape) == "string" and TYPES[shape] then
    if type(value) ~= shape then
      local got = value == nil and "nil" or (type(value) .. " " .. render(value))
      table.insert(out, path .. ": expected " .. shape .. ", got " .. got)
    end
  elseif value ~= shape then
    table.insert(out, path .. ": expected " .. render(shape) .. ", got " .. render(value))
  end
  return out
end

local function difference(expected, actual)
  local e, a = render(expected), render(actual)
  if type(expected) == "string" and type(actual) == "string" then
    e, a = expected, actual
  end
  if not e:find("\n") and not a:find("\n") then
    return "expected: " .. render(expected) .. "\n     got: " .. render(actual)
  end
  if not e:match("\n$") then e = e .. "\n" end
  if not a:match("\n$") then a = a .. "\n" end
  return "- expected, + actual\n" .. native.__diff(e, a)
end

-- The extension's file and line behind `value`: the record it came from, else the
-- latest `ctx.ui` call carrying that very string.
local function origin(value)
  if origins[value] then return origins[value] end
  if type(value) ~= "string" then return nil end
  local ok, calls = pcall(native.ui_calls)
  if not ok then return nil end
  for i = #calls, 1, -1 do
    for _, v in pairs(calls[i]) do
      if v == value and calls[i].at then return calls[i].at end
    end
  end
  return nil
end

function expect(actual)
  local negated = false
  local e = {}
  local function check(ok, message)
    if ok == negated then
      if negated then message = "not: " .. message end
      fail(message, origin(actual))
    end
  end
  function e.to_equal(expected)
    check(equal(actual, expected), "values differ\n" .. difference(expected, actual))
  end
  function e.to_be(expected)
    check(rawequal(actual, expected), "expected the very value " .. render(expected) .. ", got " .. render(actual))
  end
  function e.to_be_truthy()
    check(actual and true or false, "expected a true value, got " .. render(actual))
  end
  function e.to_match(pattern)
    check(type(actual) == "string" and actual:find(pattern) ~= nil,
      "expected " .. render(actual) .. " to match " .. render(pattern))
  end
  function e.to_contain(item)
    local found = false
    if type(actual) == "string" and type(item) == "string" then
      found = actual:find(item, 1, true) ~= nil
    elseif type(actual) == "table" then
      for _, v in pairs(actual) do
        if matches(v, item) then found = true break end
      end
    end
    check(found, "expected " .. render(actual) .. "\nto contain " .. render(item))
  end
  function e.to_have_shape(shape)
    local errors = shape_errors(actual, shape, "", {})
    check(#errors == 0, "shape differs:\n  " .. table.concat(errors, "\n  "))
  end
  function e.to_error(pattern)
    if type(actual) ~= "function" then fail("to_error needs a function, got " .. type(actual)) end
    local ok, message = pcall(actual)
    if type(message) == "table" and message.message then message = message.message end
    message = tostring(message)
    local good = not ok and (pattern == nil or message:find(pattern) ~= nil)
    local why = ok and "expected an error, none was raised"
      or ("expected an error matching " .. render(pattern) .. ", got: " .. message)
    if negated then why = "expected no error, got: " .. message end
    check(good, why)
  end
  e.never = setmetatable({}, {
    __index = function(_, k)
      negated = true
      return e[k]
    end,
  })
  return e
end

-- Records from the extension remember where it made them, so a failure can say so.
local function remember(records)
  for _, record in ipairs(records) do
    if type(record) == "table" and record.at then
      origins[record] = record.at
      for _, v in pairs(record) do
        if type(v) == "string" then origins[v] = record.at end
      end
    end
  end
  return records
end

local ui_calls = native.ui_calls
function native.ui_calls(method) return remember(ui_calls(method)) end
local tool_calls = native.tool_calls
function native.tool_calls() return remember(tool_calls()) end

local snapshot = native.__snapshot
function native.snapshot(name, width, height)
  local differs = snapshot(name, width, height)
  if differs then fail(differs) end
end

local function on_error(e)
  if getmetatable(e) == Failure then return e end
  local message = tostring(e)
  local from
  for site in message:gmatch("([^%s:\"']+%.lua:%d+)") do
    local tail = site:match("^(.-):%d+$"):gsub("^%.%.%.", "")
    if SOURCE:sub(-#tail) ~= tail then from = site break end
  end
  return { message = message, line = test_line(), from = from, traceback = debug.traceback("", 2) }
end

local function run_hooks(chain, which, reverse)
  local first, last, step = 1, #chain, 1
  if reverse then first, last, step = #chain, 1, -1 end
  for i = first, last, step do
    local hooks = chain[i][which]
    for _, hook in ipairs(hooks) do hook() end
  end
end

-- Run every collected test; `report(name, line, failure)` hears about each.
function __pi_run_tests(begin, finish, report)
  for _, test in ipairs(tests) do
    begin()
    local ok, failure = xpcall(function()
      run_hooks(test.chain, "before", false)
      test.body()
    end, on_error)
    local after_ok, after_failure = xpcall(function()
      run_hooks(test.chain, "after", true)
    end, on_error)
    local problems = finish()
    if ok and not after_ok then ok, failure = false, after_failure end
    if ok and #problems > 0 then
      ok, failure = false, { message = table.concat(problems, "\n"), line = test.line }
    end
    report(test.name, test.line, not ok and failure or nil)
  end
  return #tests
end
