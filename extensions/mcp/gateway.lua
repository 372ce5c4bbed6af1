-- The `mcp` tool: reaches the servers whose tool lists pi has not read yet, without
-- starting any of them before the model asks. Given only `server`, it starts that
-- server and lists its tools (registered as `<server>_<tool>` for the next prompts,
-- and cached for later sessions); given `tool` too, it calls it.

local M = {}

---@param pi pi.API
function M.register(pi, s)
  local tr = s.tr

  local function listing(server)
    local lines = { tr("gateway.listed", { server = server.name, count = #(server.tools or {}) }) }
    for _, tool in ipairs(server.tools or {}) do
      lines[#lines + 1] = "- "
        .. tool.name
        .. " ("
        .. s.tool_name(server.name, tool.name)
        .. "): "
        .. (tool.description or ""):gsub("%s+", " ")
      if type(tool.inputSchema) == "table" then
        lines[#lines + 1] = "  input: " .. pi.json.encode(tool.inputSchema)
      end
    end
    return table.concat(lines, "\n")
  end

  pi.registerTool({
    name = "mcp",
    label = "MCP",
    description = "Use the tools of MCP servers whose tools are not listed yet: "
      .. table.concat(s.unlisted, ", ")
      .. ". First call with only `server` to start it and list its tools with their input schemas; "
      .. "then call with `server`, `tool` and `arguments`. From the next prompt on, listed tools are also "
      .. "offered as tools of their own named `<server>_<tool>`.",
    parameters = {
      type = "object",
      properties = {
        server = { type = "string", description = "The MCP server's name", enum = s.unlisted },
        tool = { type = "string", description = "The tool to call, as the listing names it; leave out to list the tools" },
        arguments = { type = "object", description = "The tool's arguments, following its input schema" },
      },
      required = { "server" },
    },
    execute = function(_, params, signal)
      local server = s.servers[params.server]
      if not server then
        error(tr("error.unknown", { server = tostring(params.server) }), 0)
      end
      if params.tool == nil or params.tool == "" then
        local conn, err = s.connect(server, signal)
        if not conn then
          error(err, 0)
        end
        return { content = { { type = "text", text = listing(server) } } }
      end
      local arguments = params.arguments
      if type(arguments) ~= "table" or next(arguments) == nil then
        arguments = pi.json.decode("{}")
      end
      return s.run_tool(server, params.tool, arguments, signal)
    end,
  })
end

return M
