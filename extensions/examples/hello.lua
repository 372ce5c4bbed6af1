-- The smallest useful tool: greets someone by name.
--
--   pi -e extensions/examples/hello.lua
local function setup(pi)
  pi.registerTool({
    name = "hello",
    label = "Hello",
    description = "A simple greeting tool",
    parameters = {
      type = "object",
      properties = { name = { type = "string", description = "Name to greet" } },
      required = { "name" },
    },
    execute = function(_, params)
      return {
        content = { { type = "text", text = "Hello, " .. params.name .. "!" } },
        details = { greeted = params.name },
      }
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = {},
  setup = setup,
}
