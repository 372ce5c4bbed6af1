-- Rewrites or answers what the user types before it reaches the model:
--   ?quick <question>  asks for a one- or two-sentence answer
--   ping               answers "pong" without calling the model
--   time               shows the local time without calling the model
--
--   pi -e extensions/examples/input-transform.lua
local function setup(pi)
  pi.on("input", function(event, ctx)
    if event.source == "extension" then return { action = "continue" } end

    local query = event.text:match("^%?quick (.*)$")
    if query then
      query = query:match("^%s*(.-)%s*$")
      if query == "" then
        ctx.ui.notify("Usage: ?quick <question>", "warning")
        return { action = "handled" }
      end
      return { action = "transform", text = "Respond briefly in 1-2 sentences: " .. query }
    end

    local word = event.text:lower()
    if word == "ping" then
      ctx.ui.notify("pong", "info")
      return { action = "handled" }
    elseif word == "time" then
      ctx.ui.notify(os.date("%c"), "info")
      return { action = "handled" }
    end
    return { action = "continue" }
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
