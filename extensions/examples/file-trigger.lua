-- Watches a trigger file; whatever another program writes there is added to
-- the conversation and the model answers it. The file is emptied after reading.
--
--   pi -e extensions/examples/file-trigger.lua
--   echo "Run the tests" > /tmp/agent-trigger.txt
--
-- PI_TRIGGER_FILE names another file to watch.
local function setup(pi)
  local trigger = os.getenv("PI_TRIGGER_FILE") or "/tmp/agent-trigger.txt"
  local timer

  -- Timer callbacks cannot wait, so the file is read with plain io.
  local function check()
    local file = io.open(trigger, "r")
    if not file then return end -- not created yet
    local text = file:read("a"):match("^%s*(.-)%s*$")
    file:close()
    if text ~= "" then
      file = io.open(trigger, "w")
      if file then file:close() end
      pi.sendMessage(
        { customType = "file-trigger", content = "External trigger: " .. text, display = true },
        { triggerTurn = true }
      )
    end
  end

  pi.on("session_start", function(_, ctx)
    if timer then pi.clearInterval(timer) end
    timer = pi.setInterval(check, 250)
    if ctx.hasUI then ctx.ui.notify("Watching " .. trigger, "info") end
  end)

  pi.on("session_shutdown", function()
    if timer then pi.clearInterval(timer) end
    timer = nil
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {
    -- The trigger file is wherever PI_TRIGGER_FILE says (/tmp/agent-trigger.txt by default).
    fs = { write = { "/" } },
    env = { "PI_TRIGGER_FILE" },
  },
  setup = setup,
}
