-- pi: the standard library an extension's environment gets. Every function that
-- touches a file, runs a program or reads the environment asks the extension's
-- guard first (`check.*`, in Rust); `raw` holds the functions as they were when the
-- VM started, so another extension replacing `io.open` cannot widen anyone's rights.
local env, raw, check, sealed = ...

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

local io_t = copy(raw.io)
io_t.open = function(path, mode, ...)
  local m = mode or "r"
  if type(path) == "string" then
    if m:find("[wa+]") then
      path = check.write(path)
    else
      path = check.read(path)
    end
  end
  return raw.io.open(path, mode, ...)
end
io_t.lines = function(path, ...)
  if type(path) == "string" then path = check.read(path) end
  if path == nil then return raw.io.lines() end
  return raw.io.lines(path, ...)
end
io_t.input = function(file)
  if type(file) == "string" then file = check.read(file) end
  if file == nil then return raw.io.input() end
  return raw.io.input(file)
end
io_t.output = function(file)
  if type(file) == "string" then file = check.write(file) end
  if file == nil then return raw.io.output() end
  return raw.io.output(file)
end
io_t.tmpfile = function()
  check.tmp()
  return raw.io.tmpfile()
end
io_t.popen = function(...)
  check.exec("sh")
  return raw.io.popen(...)
end

local os_t = copy(raw.os)
os_t.execute = function(...)
  check.exec("sh")
  return raw.os.execute(...)
end
os_t.remove = function(path)
  return raw.os.remove(check.write(path))
end
os_t.rename = function(from, to)
  return raw.os.rename(check.write(from), check.write(to))
end
os_t.tmpname = function()
  check.tmp()
  return raw.os.tmpname()
end
os_t.getenv = function(name)
  check.env(name)
  if name == "PI_CODING_AGENT_DIR" then return check.agent_dir end
  return raw.os.getenv(name)
end

env.io = io_t
env.os = os_t
-- A limited extension's `_G` is its own environment, and chunks it loads run in it, so
-- the globals behind it stay out of reach. An unrestricted one keeps pi's globals there.
if sealed then
  env._G = env
  env.load = function(chunk, name, mode, chunk_env)
    if chunk_env == nil then chunk_env = env end
    return raw.load(chunk, name, mode, chunk_env)
  end
end
env.loadfile = function(file, mode, chunk_env)
  if type(file) == "string" then file = check.read(file) end
  if chunk_env == nil and sealed then chunk_env = env end
  if chunk_env == nil then return raw.loadfile(file, mode) end
  return raw.loadfile(file, mode, chunk_env)
end
env.dofile = function(file)
  local f = assert(env.loadfile(file))
  return f()
end

-- No C modules anywhere (pi took them out of the VM). A limited extension also gets its
-- own `package`, without the search paths and without `package.loaded` (which would
-- lead back to the globals): `require` finds Lua files in its folder only.
if sealed then
  env.package = {
    config = raw.package_config,
    path = "",
    cpath = "",
    loaded = {},
    preload = {},
    searchers = {},
    loadlib = function() check.native("package.loadlib") end,
    searchpath = function(name) return nil, "no search path in pi extensions: " .. tostring(name) end,
  }
end
