-- pi extension prelude: runs once in every fresh VM before extensions load.

local function blocked(name)
  return function()
    error(name .. " is not available in pi extensions (it would block pi); use pi.exec(cmd, args, opts) instead", 2)
  end
end

os.execute = blocked("os.execute")
io.popen = blocked("io.popen")
