-- bash-guard: wraps the bash tool (pi.wrapTool) instead of replacing it, so it composes with
-- any other extension that wraps or replaces bash. Before the command runs it refuses
-- `rm -rf` outside a temporary folder and turns on `set -o pipefail`; after it runs it adds
-- a line saying how long the command took. Its row in the terminal UI gets a `[guarded]`
-- mark (pi.wrapToolRenderer): below another extension's row for bash when there is one,
-- else after the command. Other wrappers of bash run before or after it in
-- load order, or in the order of settings "tools.wrapOrder" (docs/extensions.md).
--
--   pi -e extensions/playground/bash-guard.lua

local function dangerous(command)
  local target = command:match("rm%s+%-[a-zA-Z]*r[a-zA-Z]*f[a-zA-Z]*%s+(%S+)")
    or command:match("rm%s+%-[a-zA-Z]*f[a-zA-Z]*r[a-zA-Z]*%s+(%S+)")
  return target ~= nil and not target:match("^/tmp/")
end

return {
  -- It only looks at arguments and results: no files, programs, hosts or variables.
  capabilities = {},
  setup = function(pi)
  pi.wrapTool("bash", function(args, next, ctx)
    if dangerous(args.command or "") then
      return { block = true, reason = "bash-guard: rm -rf outside /tmp is refused; delete the files yourself" }
    end
    args.command = "set -o pipefail; " .. args.command
    local started = os.clock()
    local result = next(args)
    local ms = math.floor((os.clock() - started) * 1000)
    table.insert(result.content, { type = "text", text = ("bash-guard: checked, %d ms of CPU in pi"):format(ms) })
    return result
  end)

  local ui = require("pi.ui")
  pi.wrapToolRenderer("bash", {
    renderCall = function(args, theme, context, inner)
      local mark = theme.fg("dim", "[guarded]")
      local own = inner()
      if own then
        local box = ui.Container()
        box.addChild(own)
        box.addChild(ui.Text(mark, 0, 0))
        return box
      end
      return ui.Text(theme.fg("toolTitle", theme.bold("$ ")) .. (args.command or "") .. "  " .. mark, 0, 0)
    end,
  })
end,
}
