-- mcp.json: the `mcpServers` map of the agent folder and, in a trusted project, of
-- `.pi/mcp.json` (a project entry replaces an agent entry of the same name).

local M = {}

M.DEFAULT_TIMEOUT = 60000
M.DEFAULT_INIT_TIMEOUT = 15000

local function read_json(pi, path)
  if not pi.fs.exists(path) then
    return nil
  end
  local text, err = pi.fs.read(path)
  if not text then
    return nil, err
  end
  local ok, value = pcall(pi.json.decode, text)
  if not ok or type(value) ~= "table" then
    return nil, path .. ": not valid JSON"
  end
  return value
end

--- Validate one entry; returns the entry or nil and why not.
local function check(name, entry)
  if type(entry) ~= "table" then
    return nil, "not an object"
  end
  if entry.url == nil and entry.command == nil then
    return nil, "needs \"command\" (stdio) or \"url\" (streamable HTTP)"
  end
  if not name:match("^[%w_%-%.]+$") then
    return nil, "the name may hold letters, digits, '_', '-' and '.' only"
  end
  return entry
end

--- Servers by name, the problems found, and the servers a project declared but that
--- were skipped because the project is not trusted.
---@param pi pi.API
---@param trusted boolean
function M.load(pi, trusted)
  local servers, problems, untrusted = {}, {}, {}
  local defaults = { timeout = M.DEFAULT_TIMEOUT, initTimeout = M.DEFAULT_INIT_TIMEOUT }
  local function merge(path, scope)
    local file, err = read_json(pi, path)
    if err then
      problems[#problems + 1] = err
    end
    if not file then
      return
    end
    if type(file.settings) == "table" then
      defaults.timeout = tonumber(file.settings.timeout) or defaults.timeout
      defaults.initTimeout = tonumber(file.settings.initTimeout) or defaults.initTimeout
    end
    for name, entry in pairs(file.mcpServers or {}) do
      if scope == "project" and not trusted then
        untrusted[#untrusted + 1] = name
      else
        local ok, why = check(name, entry)
        if ok then
          entry.scope = scope
          servers[name] = entry
        else
          problems[#problems + 1] = path .. ": " .. name .. ": " .. why
        end
      end
    end
  end
  merge(pi.agentDir .. "/mcp.json", "user")
  merge(".pi/mcp.json", "project")
  for _, entry in pairs(servers) do
    entry.timeout = tonumber(entry.timeout) or defaults.timeout
    entry.initTimeout = tonumber(entry.initTimeout) or defaults.initTimeout
  end
  table.sort(untrusted)
  return servers, problems, untrusted
end

--- The cache of tool and prompt lists (`<agent>/mcp-cache.json`), so that tools are
--- known at start without starting any server.
function M.read_cache(pi)
  return read_json(pi, pi.agentDir .. "/mcp-cache.json") or {}
end

function M.write_cache(pi, cache)
  pi.fs.write(pi.agentDir .. "/mcp-cache.json", pi.json.encode(cache))
end

--- What identifies a server's configuration in the cache.
function M.fingerprint(pi, entry)
  return pi.json.encode({ entry.command or pi.json.null, entry.args or {}, entry.url or pi.json.null })
end

return M
