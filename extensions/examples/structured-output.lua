-- A structured_output tool for the model's final answer. Its result asks pi to end the
-- run (`terminate = true`), so no extra model call follows the tool call.
--
--   pi -e extensions/examples/structured-output.lua
local ui = require("pi.ui")

local function setup(pi)
  pi.registerTool({
    name = "structured_output",
    label = "Structured Output",
    description = "Return a final structured answer. Use this as your last action when the user asks for "
      .. "structured output or a machine-readable summary.",
    promptSnippet = "Emit a final structured answer as a terminating tool result",
    promptGuidelines = {
      "Use structured_output as your final action when the user asks for structured output, JSON-like output, or a machine-readable summary.",
      "After calling structured_output, do not emit another assistant response in the same turn.",
    },
    parameters = {
      type = "object",
      properties = {
        headline = { type = "string", description = "Short title for the result" },
        summary = { type = "string", description = "One-paragraph summary" },
        actionItems = { type = "array", items = { type = "string" }, description = "Concrete next steps or key bullets" },
      },
      required = { "headline", "summary", "actionItems" },
    },
    execute = function(_, params)
      return {
        content = { { type = "text", text = "Saved structured output: " .. params.headline } },
        details = { headline = params.headline, summary = params.summary, actionItems = params.actionItems },
        terminate = true,
      }
    end,
    renderResult = function(result, _, theme)
      local details = result.details
      if type(details) ~= "table" or not details.headline then
        return ui.Text(((result.content or {})[1] or {}).text or "", 0, 0)
      end
      local lines = { theme.fg("toolTitle", theme.bold(details.headline)), theme.fg("text", details.summary), "" }
      for i, item in ipairs(details.actionItems or {}) do
        lines[#lines + 1] = theme.fg("muted", i .. ". " .. item)
      end
      return ui.Text(table.concat(lines, "\n"), 0, 0)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
