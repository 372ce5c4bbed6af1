-- Replaces pi's compaction with one summary of the whole conversation, written
-- by google/gemini-2.5-flash (cheaper than most conversation models). The
-- summary keeps pi's cut point, so recent messages stay as they are.
--
--   pi -e extensions/examples/custom-compaction.lua
--
-- Without that model (or when its call fails) pi compacts as usual.
local PROVIDER, MODEL = "google", "gemini-2.5-flash"

local function serialize(pi, messages)
  local parts = {}
  for _, m in ipairs(messages) do
    local text, thinking, calls = {}, {}, {}
    if type(m.content) == "string" then
      text[1] = m.content
    else
      for _, block in ipairs(m.content or {}) do
        if block.type == "text" then
          text[#text + 1] = block.text
        elseif block.type == "thinking" then
          thinking[#thinking + 1] = block.thinking
        elseif block.type == "toolCall" then
          calls[#calls + 1] = block.name .. "(" .. pi.json.encode(block.arguments or {}) .. ")"
        end
      end
    end
    if m.role == "user" and #text > 0 then
      parts[#parts + 1] = "[User]: " .. table.concat(text)
    elseif m.role == "assistant" then
      if #thinking > 0 then parts[#parts + 1] = "[Assistant thinking]: " .. table.concat(thinking, "\n") end
      if #text > 0 then parts[#parts + 1] = "[Assistant]: " .. table.concat(text, "\n") end
      if #calls > 0 then parts[#parts + 1] = "[Assistant tool calls]: " .. table.concat(calls, "; ") end
    elseif m.role == "toolResult" and #text > 0 then
      parts[#parts + 1] = "[Tool result]: " .. table.concat(text, "\n")
    end
  end
  return table.concat(parts, "\n\n")
end

local function request(previous, conversation)
  local context = previous and ("\n\nPrevious session summary for context:\n" .. previous) or ""
  return "You are a conversation summarizer. Create a comprehensive summary of this conversation that captures:"
    .. context .. [[


1. The main goals and objectives discussed
2. Key decisions made and their rationale
3. Important code changes, file modifications, or technical details
4. Current state of any ongoing work
5. Any blockers, issues, or open questions
6. Next steps that were planned or suggested

Be thorough but concise. The summary will replace the ENTIRE conversation history, so include all information needed to continue the work effectively.

Format the summary as structured markdown with clear sections.

<conversation>
]] .. conversation .. "\n</conversation>"
end

local function thousands(n)
  local s = tostring(math.floor(n))
  repeat
    local changed
    s, changed = s:gsub("^(%d+)(%d%d%d)", "%1,%2")
  until changed == 0
  return s
end

local function setup(pi)
  pi.on("session_before_compact", function(event, ctx)
    ctx.ui.notify("Custom compaction extension triggered", "info")
    local prep = event.preparation
    if not ctx.modelRegistry.find(PROVIDER, MODEL) then
      ctx.ui.notify("Could not find Gemini Flash model, using default compaction", "warning")
      return
    end

    local messages = {}
    for _, m in ipairs(prep.messagesToSummarize or {}) do messages[#messages + 1] = m end
    for _, m in ipairs(prep.turnPrefixMessages or {}) do messages[#messages + 1] = m end
    ctx.ui.notify(string.format("Custom compaction: summarizing %d messages (%s tokens) with %s...",
      #messages, thousands(prep.tokensBefore or 0), MODEL), "info")

    local previous = prep.previousSummary
    if previous == pi.json.null then previous = nil end
    local run = pi.spawn(pi.execPath, {
      "-p", "--no-session", "--no-tools", "--no-extensions", "--no-skills", "--no-prompt-templates",
      "--no-context-files", "--no-approve", "--offline", "--model", PROVIDER .. "/" .. MODEL,
    }, { stdin = request(previous, serialize(pi, messages)), signal = event.signal }).wait()
    if run.killed then return end
    if run.code ~= 0 then
      ctx.ui.notify("Compaction failed: " .. (run.stderr:match("^%s*(.-)%s*$")), "error")
      return
    end
    local summary = run.stdout:gsub("%s+$", "")
    if summary == "" then
      ctx.ui.notify("Compaction summary was empty, using default compaction", "warning")
      return
    end
    return {
      compaction = {
        summary = summary,
        firstKeptEntryId = prep.firstKeptEntryId,
        tokensBefore = prep.tokensBefore,
      },
    }
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "$pi" } },
  setup = setup,
}
