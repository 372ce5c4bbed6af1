-- pi extension prelude: runs once in every fresh VM before extensions load.

local function blocked(name)
  return function()
    error(name .. " is not available in pi extensions (it would block pi); use pi.exec(cmd, args, opts) instead", 2)
  end
end

os.execute = blocked("os.execute")
io.popen = blocked("io.popen")

-- Only source text may be loaded: Lua does not verify precompiled bytecode,
-- and a damaged or crafted chunk can crash the whole process.
do
  local raw_load, raw_loadfile = load, loadfile
  load = function(chunk, name, _, ...)
    if select("#", ...) > 0 then
      return raw_load(chunk, name, "t", (...))
    end
    return raw_load(chunk, name, "t")
  end
  loadfile = function(file, _, ...)
    if select("#", ...) > 0 then
      return raw_loadfile(file, "t", (...))
    end
    return raw_loadfile(file, "t")
  end
  dofile = function(file)
    local f = assert(raw_loadfile(file, "t"))
    return f()
  end
end
