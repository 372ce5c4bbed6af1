-- An rg tool (ripgrep) that truncates its output the way pi's own tools do:
-- at most 2000 lines or 50KB reach the model; when more was found, the whole
-- output goes to a temporary file and the model is told where.
--
--   pi -e extensions/examples/truncated-tool.lua
local MAX_LINES, MAX_BYTES = 2000, 50 * 1024

local function size(bytes)
  if bytes < 1024 then return bytes .. "B" end
  if bytes < 1024 * 1024 then return string.format("%.1fKB", bytes / 1024) end
  return string.format("%.1fMB", bytes / 1024 / 1024)
end

local function setup(pi)
  local ui = require("pi.ui")

  pi.registerTool({
    name = "rg",
    label = "ripgrep",
    description = string.format("Search file contents using ripgrep. Output is truncated to %d lines or %s "
      .. "(whichever is hit first). If truncated, full output is saved to a temp file.", MAX_LINES, size(MAX_BYTES)),
    parameters = {
      type = "object",
      properties = {
        pattern = { type = "string", description = "Search pattern (regex)" },
        path = { type = "string", description = "Directory to search (default: current directory)" },
        glob = { type = "string", description = "File glob pattern, e.g. '*.ts'" },
      },
      required = { "pattern" },
    },
    execute = function(_, params, signal, _, ctx)
      local args = { "--line-number", "--color=never" }
      if params.glob then
        args[#args + 1] = "--glob"
        args[#args + 1] = params.glob
      end
      args[#args + 1] = params.pattern
      args[#args + 1] = params.path or "."
      local run = pi.exec("rg", args, { cwd = ctx.cwd, signal = signal })
      local details = { pattern = params.pattern, path = params.path, glob = params.glob, matchCount = 0 }
      if run.code == 1 or (run.code == 0 and not run.stdout:find("%S")) then
        return { content = { { type = "text", text = "No matches found" } }, details = details }
      elseif run.code ~= 0 then
        error("ripgrep failed: " .. run.stderr, 0)
      end

      local output = run.stdout
      for line in output:gmatch("[^\n]+") do
        if line:find("%S") then details.matchCount = details.matchCount + 1 end
      end
      local cut = pi.truncateHead(output, { maxLines = MAX_LINES, maxBytes = MAX_BYTES })
      local text = cut.content
      if cut.truncated then
        local path = os.tmpname()
        local file = assert(io.open(path, "w"))
        file:write(output)
        file:close()
        details.truncation = cut
        details.fullOutputPath = path
        text = text .. string.format(
          "\n\n[Output truncated: showing %d of %d lines (%s of %s). %d lines (%s) omitted. Full output saved to: %s]",
          cut.outputLines, cut.totalLines, size(cut.outputBytes), size(cut.totalBytes),
          cut.totalLines - cut.outputLines, size(cut.totalBytes - cut.outputBytes), path)
      end
      return { content = { { type = "text", text = text } }, details = details }
    end,

    renderCall = function(args, theme)
      local text = theme.fg("toolTitle", theme.bold("rg ")) .. theme.fg("accent", '"' .. (args.pattern or "") .. '"')
      if args.path then text = text .. theme.fg("muted", " in " .. args.path) end
      if args.glob then text = text .. theme.fg("dim", " --glob " .. args.glob) end
      return ui.Text(text, 0, 0)
    end,

    renderResult = function(result, options, theme)
      if options.isPartial then return ui.Text(theme.fg("warning", "Searching..."), 0, 0) end
      local details = result.details
      if not details or (details.matchCount or 0) == 0 then
        return ui.Text(theme.fg("dim", "No matches found"), 0, 0)
      end
      local text = theme.fg("success", details.matchCount .. " matches")
      if details.truncation and details.truncation.truncated then text = text .. theme.fg("warning", " (truncated)") end
      if options.expanded then
        local body = result.content[1] and result.content[1].text or ""
        local shown = 0
        for line in (body .. "\n"):gmatch("(.-)\n") do
          shown = shown + 1
          if shown > 20 then
            text = text .. "\n" .. theme.fg("muted", "... (use read tool to see full output)")
            break
          end
          text = text .. "\n" .. theme.fg("dim", line)
        end
        if details.fullOutputPath then text = text .. "\n" .. theme.fg("dim", "Full output: " .. details.fullOutputPath) end
      end
      return ui.Text(text, 0, 0)
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "rg" }, fs = { write = { "$tmp" } } },
  setup = setup,
}
