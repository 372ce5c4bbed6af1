-- /summarize asks openai/gpt-5.2 for a summary of the conversation (goals,
-- decisions, progress, open questions, next steps) and shows it in a panel.
--
--   pi -e extensions/examples/summarize.lua
--
-- The model is asked through a one-shot pi process, so it needs to be set up
-- in pi (an API key for openai).
local PROVIDER, MODEL = "openai", "gpt-5.2"

local function texts(content)
  if type(content) == "string" then return { content } end
  local out = {}
  for _, block in ipairs(type(content) == "table" and content or {}) do
    if block.type == "text" and type(block.text) == "string" then out[#out + 1] = block.text end
  end
  return out
end

local function conversation(pi, branch)
  local sections = {}
  for _, entry in ipairs(branch) do
    local m = entry.type == "message" and entry.message
    if m and (m.role == "user" or m.role == "assistant") then
      local lines = {}
      local text = table.concat(texts(m.content), "\n"):match("^%s*(.-)%s*$")
      if text ~= "" then lines[#lines + 1] = (m.role == "user" and "User: " or "Assistant: ") .. text end
      if m.role == "assistant" and type(m.content) == "table" then
        for _, block in ipairs(m.content) do
          if block.type == "toolCall" and type(block.name) == "string" then
            lines[#lines + 1] = "Tool " .. block.name .. " was called with args " .. pi.json.encode(block.arguments or {})
          end
        end
      end
      if #lines > 0 then sections[#sections + 1] = table.concat(lines, "\n") end
    end
  end
  return table.concat(sections, "\n\n")
end

local function summary_prompt(text)
  return table.concat({
    "Summarize this conversation so I can resume it later.",
    "Include goals, key decisions, progress, open questions, and next steps.",
    "Keep it concise and structured with headings.",
    "",
    "<conversation>",
    text,
    "</conversation>",
  }, "\n")
end

local function setup(pi)
  local ui = require("pi.ui")

  local function show(ctx, summary)
    ctx.ui.custom(function(_, theme, _, done)
      local box = ui.Container()
      local border = ui.DynamicBorder(function(s) return theme.fg("accent", s) end)
      box.addChild(border)
      box.addChild(ui.Text(theme.fg("accent", theme.bold("Conversation Summary")), 1, 0))
      box.addChild(ui.Markdown(summary, 1, 1, theme))
      box.addChild(ui.Text(theme.fg("dim", "Press Enter or Esc to close"), 1, 0))
      box.addChild(border)
      return {
        render = function(width) return box.render(width) end,
        handleInput = function(key)
          if key == "enter" or key == "escape" then done(nil) end
        end,
      }
    end)
  end

  pi.registerCommand("summarize", {
    description = "Summarize the current conversation in a custom UI",
    handler = function(_, ctx)
      local text = conversation(pi, ctx.sessionManager.getBranch())
      if not text:find("%S") then
        if ctx.hasUI then ctx.ui.notify("No conversation text found", "warning") end
        return
      end
      if ctx.hasUI then ctx.ui.notify("Preparing summary...", "info") end
      if not ctx.modelRegistry.find(PROVIDER, MODEL) then
        if ctx.hasUI then ctx.ui.notify("Model " .. PROVIDER .. "/" .. MODEL .. " not found", "warning") end
        return
      end

      local run = pi.spawn(pi.execPath, {
        "-p", "--no-session", "--no-tools", "--no-extensions", "--no-skills", "--no-prompt-templates",
        "--no-context-files", "--no-approve", "--offline", "--model", PROVIDER .. "/" .. MODEL, "--thinking", "high",
      }, { stdin = summary_prompt(text) }).wait()
      if run.code ~= 0 then
        if ctx.hasUI then ctx.ui.notify((run.stderr:match("^%s*(.-)%s*$")), "warning") end
        return
      end
      show(ctx, (run.stdout:gsub("%s+$", "")))
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "$pi" } },
  setup = setup,
}
