-- /qna pulls the questions out of the last answer and puts them in the editor
-- as "Q: ... / A: " pairs, ready for you to fill in and send back.
--
--   pi -e extensions/examples/qna.lua
--
-- The extraction asks the current model once, through a one-shot pi process.
local SYSTEM_PROMPT = [[You are a question extractor. Given text from a conversation, extract any questions that need answering and format them for the user to fill in.

Output format:
- List each question on its own line, prefixed with "Q: "
- After each question, add a blank line for the answer prefixed with "A: "
- If no questions are found, output "No questions found in the last message."

Example output:
Q: What is your preferred database?
A: 

Q: Should we use TypeScript or JavaScript?
A: 

Keep questions in the order they appeared. Be concise.]]

-- Start a one-shot pi that answers `prompt` with `model`; onDone(text or nil, error).
local function ask_model(pi, model, system, prompt, onDone)
  local out = {}
  return pi.spawn(pi.execPath, {
    "-p", "--no-session", "--no-tools", "--no-extensions", "--no-skills", "--no-prompt-templates",
    "--no-context-files", "--no-approve", "--offline",
    "--model", model.provider .. "/" .. model.id, "--system-prompt", system,
  }, {
    stdin = prompt,
    onStdout = function(line) out[#out + 1] = line end,
    onExit = function(code, killed)
      if killed then return onDone(nil) end
      if code ~= 0 then return onDone(nil, "the model call failed") end
      onDone((table.concat(out, "\n"):gsub("%s+$", "")))
    end,
  })
end

local function last_answer(branch)
  for i = #branch, 1, -1 do
    local m = branch[i].type == "message" and branch[i].message
    if m and m.role == "assistant" then
      if m.stopReason and m.stopReason ~= "stop" then return nil, m.stopReason end
      local parts = {}
      for _, block in ipairs(type(m.content) == "table" and m.content or {}) do
        if block.type == "text" then parts[#parts + 1] = block.text end
      end
      if #parts > 0 then return table.concat(parts, "\n") end
    end
  end
end

local function setup(pi)
  local ui = require("pi.ui")

  pi.registerCommand("qna", {
    description = "Extract questions from last assistant message into editor",
    handler = function(_, ctx)
      if not ctx.hasUI then return ctx.ui.notify("qna requires interactive mode", "error") end
      if not ctx.model then return ctx.ui.notify("No model selected", "error") end
      local text, stopped = last_answer(ctx.sessionManager.getBranch())
      if stopped then return ctx.ui.notify("Last assistant message incomplete (" .. stopped .. ")", "error") end
      if not text then return ctx.ui.notify("No assistant messages found", "error") end

      local finished, result = false, nil
      local close -- done() of the loader, while it shows
      local proc = ask_model(pi, ctx.model, SYSTEM_PROMPT, text, function(answer)
        finished, result = true, answer
        if close then close(answer ~= nil) end
      end)

      local shown = ctx.ui.custom(function(tui, theme, _, done)
        close = done
        if finished then done(result ~= nil) end
        local loader = ui.Loader(tui, function(s) return theme.fg("accent", s) end,
          function(s) return theme.fg("muted", s) end, "Extracting questions using " .. ctx.model.id .. "...")
        local box = ui.Container()
        box.addChild(ui.DynamicBorder(function(s) return theme.fg("border", s) end))
        box.addChild(loader)
        box.addChild(ui.Text(theme.fg("dim", "Esc to cancel"), 1, 0))
        box.addChild(ui.DynamicBorder(function(s) return theme.fg("border", s) end))
        return {
          render = function(width) return box.render(width) end,
          handleInput = function(key)
            if key == "escape" then
              proc.kill()
              done(false)
            end
          end,
          dispose = function() loader.stop() end,
        }
      end)
      close = nil
      -- Front ends without components return at once: wait for the answer here.
      if shown == nil and not finished then
        proc.wait()
        while not finished do pi.sleep(10) end -- onExit comes right after
      end
      if shown == false or not result then return ctx.ui.notify("Cancelled", "info") end

      ctx.ui.setEditorText(result)
      ctx.ui.notify("Questions loaded. Edit and submit when ready.", "info")
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "$pi" } },
  setup = setup,
}
