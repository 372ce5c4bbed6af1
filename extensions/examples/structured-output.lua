-- A structured_output tool for the model's final answer (headline, summary,
-- action items). The run ends with the tool call: once the tool has answered,
-- no further model call is made for that turn.
--
--   pi -e extensions/examples/structured-output.lua
return function(pi)
  local ui = require("pi.ui")
  local finished = false -- structured_output answered during this turn

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
      finished = true
      return {
        content = { { type = "text", text = "Saved structured output: " .. params.headline } },
        details = { headline = params.headline, summary = params.summary, actionItems = params.actionItems },
      }
    end,
    renderResult = function(result, _, theme)
      local d = result.details
      if type(d) ~= "table" or not d.headline then
        return ui.Text(result.content[1] and result.content[1].text or "", 0, 0)
      end
      local lines = { theme.fg("toolTitle", theme.bold(d.headline)), theme.fg("text", d.summary), "" }
      for i, item in ipairs(d.actionItems or {}) do
        lines[#lines + 1] = theme.fg("muted", i .. ". " .. item)
      end
      return ui.Text(table.concat(lines, "\n"), 0, 0)
    end,
  })

  -- The tool's answer is final: stop the run before the model is asked again.
  pi.on("turn_end", function(_, ctx)
    if finished then
      finished = false
      ctx.abort()
    end
  end)
  pi.on("agent_start", function() finished = false end)
end
