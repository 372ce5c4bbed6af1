-- Logs every provider request body and response status to .pi/provider-payload.log.
--
--   pi -e extensions/examples/provider-payload.lua
--
-- To change what is sent instead of only logging it, return a modified payload
-- from the before_provider_request handler (e.g. payload.temperature = 0).
local function setup(pi)
  local log_path = ".pi/provider-payload.log"

  local function append(text)
    if not pi.fs.exists(".pi") then pi.fs.write(log_path, "") end
    local file = assert(io.open(log_path, "a"))
    file:write(text, "\n\n")
    file:close()
  end

  pi.on("before_provider_request", function(event)
    append(pi.json.encode(event.payload))
  end)

  pi.on("after_provider_response", function(event)
    append(string.format("[%s] %s", tostring(event.status), pi.json.encode(event.headers or {})))
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { fs = { write = { ".pi/provider-payload.log" }, read = { ".pi" } } },
  setup = setup,
}
