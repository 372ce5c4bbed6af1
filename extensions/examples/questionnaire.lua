-- A questionnaire tool: one question shows a plain option list; several show a
-- tab bar (Tab/←→) with a final Submit tab listing the answers. Each question
-- may offer "Type something." for a free answer.
--
--   pi -e extensions/examples/questionnaire.lua
local function setup(pi)
  local ui = require("pi.ui")

  local function run(ctx, questions)
    local multi = #questions > 1
    local tabs = #questions + 1 -- the last tab is Submit

    return ctx.ui.custom(function(tui, theme, _, done)
      local tab, index = 1, 1
      local typing, typed = false, ""
      local answers = {} -- question id -> answer

      local function answered_all()
        for _, q in ipairs(questions) do
          if not answers[q.id] then return false end
        end
        return true
      end

      local function finish(cancelled)
        local list = {}
        for _, q in ipairs(questions) do
          if answers[q.id] then list[#list + 1] = answers[q.id] end
        end
        done({ questions = questions, answers = list, cancelled = cancelled })
      end

      local function options(q)
        local list = {}
        for i, o in ipairs(q.options) do list[i] = o end
        if q.allowOther then list[#list + 1] = { value = "__other__", label = "Type something.", other = true } end
        return list
      end

      local function advance()
        if not multi then return finish(false) end
        tab = math.min(tab + 1, tabs)
        index = 1
      end

      local function handleInput(key)
        local q = questions[tab]
        if typing then
          if key == "escape" then
            typing, typed = false, ""
          elseif key == "enter" then
            local answer = typed:match("^%s*(.-)%s*$")
            if answer == "" then answer = "(no response)" end
            answers[q.id] = { id = q.id, value = answer, label = answer, wasCustom = true }
            typing, typed = false, ""
            advance()
          elseif key == "backspace" then
            typed = typed:sub(1, (utf8.offset(typed, -1) or 1) - 1)
          elseif utf8.len(key) == 1 then
            typed = typed .. key
          end
          return tui.requestRender()
        end

        if multi and (key == "tab" or key == "right") then
          tab, index = tab % tabs + 1, 1
        elseif multi and (key == "shift+tab" or key == "left") then
          tab, index = (tab - 2) % tabs + 1, 1
        elseif tab == tabs then
          if key == "enter" and answered_all() then return finish(false) end
          if key == "escape" then return finish(true) end
        elseif key == "up" then
          index = math.max(1, index - 1)
        elseif key == "down" then
          index = math.min(#options(q), index + 1)
        elseif key == "enter" then
          local choice = options(q)[index]
          if choice.other then
            typing, typed = true, ""
          else
            answers[q.id] = { id = q.id, value = choice.value, label = choice.label, wasCustom = false, index = index }
            advance()
          end
        elseif key == "escape" then
          return finish(true)
        end
        tui.requestRender()
      end

      local function render(width)
        local lines = {}
        local function add(s) lines[#lines + 1] = ui.truncateToWidth(s, width) end
        local rule = theme.fg("accent", string.rep("─", width))
        add(rule)

        if multi then
          local bar = { "← " }
          for i, q in ipairs(questions) do
            local text = string.format(" %s %s ", answers[q.id] and "■" or "□", q.label)
            if i == tab then
              bar[#bar + 1] = theme.bg("selectedBg", theme.fg("text", text)) .. " "
            else
              bar[#bar + 1] = theme.fg(answers[q.id] and "success" or "muted", text) .. " "
            end
          end
          local submit = " ✓ Submit "
          bar[#bar + 1] = (tab == tabs and theme.bg("selectedBg", theme.fg("text", submit))
            or theme.fg(answered_all() and "success" or "dim", submit)) .. " →"
          add(" " .. table.concat(bar))
          add("")
        end

        local q = questions[tab]
        local function list_options()
          for i, o in ipairs(options(q)) do
            local text = i .. ". " .. o.label .. ((o.other and typing) and " ✎" or "")
            add((i == index and theme.fg("accent", "> ") or "  ") .. theme.fg(i == index and "accent" or "text", text))
            if o.description then add("     " .. theme.fg("muted", o.description)) end
          end
        end

        if tab == tabs then
          add(theme.fg("accent", theme.bold(" Ready to submit")))
          add("")
          local missing = {}
          for _, question in ipairs(questions) do
            local a = answers[question.id]
            if a then
              add(theme.fg("muted", " " .. question.label .. ": ") .. (a.wasCustom and "(wrote) " or "") .. a.label)
            else
              missing[#missing + 1] = question.label
            end
          end
          add("")
          if #missing == 0 then
            add(theme.fg("success", " Press Enter to submit"))
          else
            add(theme.fg("warning", " Unanswered: " .. table.concat(missing, ", ")))
          end
        else
          add(" " .. q.prompt)
          add("")
          list_options()
          if typing then
            add("")
            add(theme.fg("muted", " Your answer:"))
            add(" " .. theme.fg("accent", "› ") .. typed .. theme.inverse(" "))
            add("")
            add(theme.fg("dim", " Enter to submit • Esc to cancel"))
          end
        end

        if not typing then
          add("")
          add(theme.fg("dim", multi and " Tab/←→ navigate • ↑↓ select • Enter confirm • Esc cancel"
            or " ↑↓ navigate • Enter select • Esc cancel"))
        end
        add(rule)
        return lines
      end

      return { render = render, handleInput = handleInput }
    end)
  end

  local function failure(message)
    return {
      content = { { type = "text", text = message } },
      details = { questions = {}, answers = {}, cancelled = true },
    }
  end

  pi.registerTool({
    name = "questionnaire",
    label = "Questionnaire",
    description = "Ask the user one or more questions. Use for clarifying requirements, getting preferences, "
      .. "or confirming decisions. For single questions, shows a simple option list. For multiple questions, "
      .. "shows a tab-based interface.",
    parameters = {
      type = "object",
      properties = {
        questions = {
          type = "array",
          description = "Questions to ask the user",
          items = {
            type = "object",
            properties = {
              id = { type = "string", description = "Unique identifier for this question" },
              label = { type = "string", description = "Short contextual label for tab bar, e.g. 'Scope', 'Priority' (defaults to Q1, Q2)" },
              prompt = { type = "string", description = "The full question text to display" },
              options = {
                type = "array",
                description = "Available options to choose from",
                items = {
                  type = "object",
                  properties = {
                    value = { type = "string", description = "The value returned when selected" },
                    label = { type = "string", description = "Display label for the option" },
                    description = { type = "string", description = "Optional description shown below label" },
                  },
                  required = { "value", "label" },
                },
              },
              allowOther = { type = "boolean", description = "Allow 'Type something' option (default: true)" },
            },
            required = { "id", "prompt", "options" },
          },
        },
      },
      required = { "questions" },
    },
    execute = function(_, params, _, _, ctx)
      if not ctx.hasUI then return failure("Error: UI not available (running in non-interactive mode)") end
      if #params.questions == 0 then return failure("Error: No questions provided") end

      local questions = {}
      for i, q in ipairs(params.questions) do
        questions[i] = {
          id = q.id,
          label = (q.label and q.label ~= "") and q.label or ("Q" .. i),
          prompt = q.prompt,
          options = q.options,
          allowOther = q.allowOther ~= false,
        }
      end

      local result = run(ctx, questions)
      if not result or result.cancelled then
        return { content = { { type = "text", text = "User cancelled the questionnaire" } },
          details = result or { questions = questions, answers = {}, cancelled = true } }
      end
      local labels = {}
      for _, q in ipairs(questions) do labels[q.id] = q.label end
      local lines = {}
      for i, a in ipairs(result.answers) do
        if a.wasCustom then
          lines[i] = string.format("%s: user wrote: %s", labels[a.id] or a.id, a.label)
        else
          lines[i] = string.format("%s: user selected: %d. %s", labels[a.id] or a.id, a.index, a.label)
        end
      end
      return { content = { { type = "text", text = table.concat(lines, "\n") } }, details = result }
    end,

    renderCall = function(args, theme)
      local qs = type(args.questions) == "table" and args.questions or {}
      local labels = {}
      for i, q in ipairs(qs) do labels[i] = q.label or q.id end
      local text = theme.fg("toolTitle", theme.bold("questionnaire "))
        .. theme.fg("muted", #qs .. " question" .. (#qs == 1 and "" or "s"))
      if #labels > 0 then
        text = text .. theme.fg("dim", " (" .. ui.truncateToWidth(table.concat(labels, ", "), 40) .. ")")
      end
      return ui.Text(text, 0, 0)
    end,

    renderResult = function(result, _, theme)
      local d = result.details
      if type(d) ~= "table" then return ui.Text(result.content[1] and result.content[1].text or "", 0, 0) end
      if d.cancelled then return ui.Text(theme.fg("warning", "Cancelled"), 0, 0) end
      local lines = {}
      for i, a in ipairs(d.answers or {}) do
        local shown = a.wasCustom and (theme.fg("muted", "(wrote) ") .. a.label)
          or (a.index and (a.index .. ". " .. a.label) or a.label)
        lines[i] = theme.fg("success", "✓ ") .. theme.fg("accent", a.id) .. ": " .. shown
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
