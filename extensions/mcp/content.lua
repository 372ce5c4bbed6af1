-- MCP tool schemas and results in pi's terms.

local M = {}

--- A server's input schema as pi tool parameters (`$schema` dropped, an object by default).
---@param pi pi.API
function M.schema(pi, schema)
  if type(schema) ~= "table" then
    return { type = "object", properties = pi.json.decode("{}") }
  end
  schema["$schema"] = nil
  if schema.type == nil then
    schema.type = "object"
  end
  return schema
end

--- The content blocks of a `tools/call` result as pi content (text and images).
---@param pi pi.API
function M.map(pi, result)
  local out = {}
  for _, block in ipairs(result.content or {}) do
    if block.type == "text" then
      out[#out + 1] = { type = "text", text = block.text }
    elseif block.type == "image" then
      out[#out + 1] = { type = "image", data = block.data, mimeType = block.mimeType }
    elseif block.type == "resource" and type(block.resource) == "table" then
      out[#out + 1] = { type = "text", text = block.resource.text or ("[" .. tostring(block.resource.uri) .. "]") }
    elseif block.type == "resource_link" then
      out[#out + 1] = { type = "text", text = "[" .. tostring(block.name or "") .. "] " .. tostring(block.uri) }
    else
      out[#out + 1] = { type = "text", text = "[" .. tostring(block.type) .. "]" }
    end
  end
  if #out == 0 and result.structuredContent ~= nil then
    out[1] = { type = "text", text = pi.json.encode(result.structuredContent) }
  end
  if #out == 0 then
    out[1] = { type = "text", text = "" }
  end
  return out
end

return M
