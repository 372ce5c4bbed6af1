-- Replaces the built-in read tool with one that logs every access to
-- <agent dir>/read-access.log and refuses sensitive files (.env, secrets,
-- credentials, ~/.ssh, ~/.aws, ~/.gnupg). /read-log shows the last entries.
--
--   pi -e extensions/examples/tool-override.lua
local BLOCKED = {
  "%.env$", "%.env%.[^/]+$",
  "secrets?%.json$", "secrets?%.ya?ml$", "secrets?%.toml$",
  "credentials?%.json$", "credentials?%.ya?ml$", "credentials?%.toml$",
  "/%.ssh/", "/%.aws/", "/%.gnupg/",
}
local MAX_BYTES = 50 * 1024

local function blocked(path)
  local lower = path:lower()
  for _, pattern in ipairs(BLOCKED) do
    -- .env patterns are case-sensitive in spirit; the rest ignore case.
    if (pattern:find("env") and path or lower):find(pattern) then return true end
  end
  return false
end

local function resolve(cwd, path)
  if path:sub(1, 1) == "/" then return path end
  if path:sub(1, 2) == "~/" then return (os.getenv("HOME") or "") .. path:sub(2) end
  return cwd .. "/" .. path:gsub("^%./", "")
end

local function setup(pi)
  local log_file = pi.agentDir .. "/read-access.log"

  local function log_access(path, allowed, reason)
    local file = io.open(log_file, "a")
    if not file then return end
    file:write(string.format("[%s] %s: %s%s\n", os.date("!%Y-%m-%dT%H:%M:%SZ"),
      allowed and "ALLOWED" or "BLOCKED", path, reason and (" (" .. reason .. ")") or ""))
    file:close()
  end

  pi.registerTool({
    name = "read",
    label = "read (audited)",
    description = "Read the contents of a file with access logging. "
      .. "Some sensitive paths (.env, secrets, credentials) are blocked.",
    parameters = {
      type = "object",
      properties = {
        path = { type = "string", description = "Path to the file to read (relative or absolute)" },
        offset = { type = "number", description = "Line number to start reading from (1-indexed)" },
        limit = { type = "number", description = "Maximum number of lines to read" },
      },
      required = { "path" },
    },
    execute = function(_, params, _, _, ctx)
      local absolute = resolve(ctx.cwd, params.path)
      if blocked(absolute) then
        log_access(absolute, false, "matches blocked pattern")
        return {
          content = { { type = "text", text = string.format(
            'Access denied: "%s" matches a blocked pattern (sensitive file). This tool blocks access to '
              .. ".env files, secrets, credentials, and SSH/AWS/GPG directories.", params.path) } },
          details = { blocked = true },
        }
      end
      log_access(absolute, true)

      local content, why = pi.fs.read(absolute)
      if not content then
        return { content = { { type = "text", text = "Error reading file: " .. tostring(why) } }, details = { error = true } }
      end
      local lines = {}
      for line in (content .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = line end
      if content:sub(-1) == "\n" then lines[#lines] = nil; lines[#lines + 1] = "" end
      local first = params.offset and math.max(1, math.floor(params.offset)) or 1
      local last = params.limit and (first + math.floor(params.limit) - 1) or #lines
      local text = table.concat(lines, "\n", first, math.min(last, #lines))
      if #text > MAX_BYTES then
        text = text:sub(1, MAX_BYTES) .. "\n\n[Output truncated at 50KB]"
      end
      return { content = { { type = "text", text = text } }, details = { lines = #lines } }
    end,
  })

  pi.registerCommand("read-log", {
    description = "View the file access log",
    handler = function(_, ctx)
      local log = pi.fs.read(log_file)
      if not log then return ctx.ui.notify("No access log found", "info") end
      local lines = {}
      for line in log:gmatch("[^\n]+") do lines[#lines + 1] = line end
      ctx.ui.notify("Recent file access:\n" .. table.concat(lines, "\n", math.max(1, #lines - 19)), "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    fs = { read = { "/" }, write = { "$agent/read-access.log" } },
    env = { "HOME" },
  },
  setup = setup,
}
