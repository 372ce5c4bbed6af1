-- A question tool: the model asks, you pick one of its options with ↑↓ and
-- Enter, or choose "Type something." to write your own answer.
--
--   pi -e extensions/examples/question.lua
local function setup(pi)
  local ui = require("pi.ui")

  local function ask(ctx, question, options)
    local choices = {}
    for i, o in ipairs(options) do choices[i] = o end
    choices[#choices + 1] = { label = "Type something.", other = true }

    return ctx.ui.custom(function(tui, theme, _, done)
      local index, editing, typed = 1, false, ""

      local function handleInput(key)
        if editing then
          if key == "escape" then
            editing, typed = false, ""
          elseif key == "enter" then
            local answer = typed:match("^%s*(.-)%s*$")
            if answer ~= "" then return done({ answer = answer, custom = true }) end
            editing, typed = false, ""
          elseif key == "backspace" then
            typed = typed:sub(1, (utf8.offset(typed, -1) or 1) - 1)
          elseif utf8.len(key) == 1 then
            typed = typed .. key
          end
        elseif key == "up" then
          index = math.max(1, index - 1)
        elseif key == "down" then
          index = math.min(#choices, index + 1)
        elseif key == "enter" then
          if choices[index].other then
            editing = true
          else
            return done({ answer = choices[index].label, index = index })
          end
        elseif key == "escape" then
          return done(nil)
        end
        tui.requestRender()
      end

      local function render(width)
        local lines = {}
        local function add(s) lines[#lines + 1] = ui.truncateToWidth(s, width) end
        add(theme.fg("accent", string.rep("─", width)))
        add(" " .. question)
        add("")
        for i, choice in ipairs(choices) do
          local text = i .. ". " .. choice.label
          if i == index then
            add(theme.fg("accent", "> " .. text .. ((choice.other and editing) and " ✎" or "")))
          else
            add("  " .. text)
          end
          if choice.description then add("     " .. theme.fg("muted", choice.description)) end
        end
        if editing then
          add("")
          add(theme.fg("muted", " Your answer:"))
          add(" " .. theme.fg("accent", "› ") .. typed .. theme.inverse(" "))
        end
        add("")
        add(theme.fg("dim", editing and " Enter to submit • Esc to go back" or " ↑↓ navigate • Enter to select • Esc to cancel"))
        add(theme.fg("accent", string.rep("─", width)))
        return lines
      end

      return { render = render, handleInput = handleInput }
    end)
  end

  pi.registerTool({
    name = "question",
    label = "Question",
    description = "Ask the user a question and let them pick from options. Use when you need user input to proceed.",
    parameters = {
      type = "object",
      properties = {
        question = { type = "string", description = "The question to ask the user" },
        options = {
          type = "array",
          description = "Options for the user to choose from",
          items = {
            type = "object",
            properties = {
              label = { type = "string", description = "Display label for the option" },
              description = { type = "string", description = "Optional description shown below label" },
            },
            required = { "label" },
          },
        },
      },
      required = { "question", "options" },
    },
    execute = function(_, params, _, _, ctx)
      local labels = {}
      for i, o in ipairs(params.options) do labels[i] = o.label end
      local details = { question = params.question, options = labels, answer = pi.json.null }
      local function reply(text) return { content = { { type = "text", text = text } }, details = details } end

      if not ctx.hasUI then return reply("Error: UI not available (running in non-interactive mode)") end
      if #params.options == 0 then return reply("Error: No options provided") end

      local result = ask(ctx, params.question, params.options)
      if not result then return reply("User cancelled the selection") end
      details.answer = result.answer
      details.wasCustom = result.custom == true
      if result.custom then return reply("User wrote: " .. result.answer) end
      return reply(string.format("User selected: %d. %s", result.index, result.answer))
    end,

    renderCall = function(args, theme)
      local text = theme.fg("toolTitle", theme.bold("question ")) .. theme.fg("muted", args.question or "")
      if type(args.options) == "table" and #args.options > 0 then
        local numbered = {}
        for i, o in ipairs(args.options) do numbered[i] = i .. ". " .. tostring(o.label) end
        numbered[#numbered + 1] = (#numbered + 1) .. ". Type something."
        text = text .. "\n" .. theme.fg("dim", "  Options: " .. table.concat(numbered, ", "))
      end
      return ui.Text(text, 0, 0)
    end,

    renderResult = function(result, _, theme)
      local d = result.details
      if type(d) ~= "table" then
        return ui.Text(result.content[1] and result.content[1].text or "", 0, 0)
      end
      if d.answer == nil or d.answer == pi.json.null then return ui.Text(theme.fg("warning", "Cancelled"), 0, 0) end
      if d.wasCustom then
        return ui.Text(theme.fg("success", "✓ ") .. theme.fg("muted", "(wrote) ") .. theme.fg("accent", d.answer), 0, 0)
      end
      local shown = d.answer
      for i, label in ipairs(d.options or {}) do
        if label == d.answer then shown = i .. ". " .. label; break end
      end
      return ui.Text(theme.fg("success", "✓ ") .. theme.fg("accent", shown), 0, 0)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
