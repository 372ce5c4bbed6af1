-- Shared by system-select and cross-agent: reading markdown definition files
-- (a `---` frontmatter block of `key: value` lines, then a body) and listing
-- the folders other coding tools keep them in.

local M = {}

--- The user's home folder ("" when unknown).
function M.home()
  return os.getenv("HOME") or os.getenv("USERPROFILE") or ""
end

local function trim(s)
  return (s:gsub("^%s+", ""):gsub("%s+$", ""))
end

local function unquote(s)
  s = trim(s)
  local inner = s:match('^"(.*)"$') or s:match("^'(.*)'$")
  return inner or s
end

--- Split `text` into its frontmatter fields and its body. Values are strings;
--- a key followed by `- item` lines (or an empty value) gives a list. Text
--- without frontmatter is all body.
---@param text string
---@return table<string, string|string[]> fields, string body
function M.parse(text)
  text = text:gsub("\r\n", "\n")
  local fields = {}
  local head, body = text:match("^%-%-%-[ \t]*\n(.-)\n%-%-%-[ \t]*\n(.*)$")
  if not head then
    head, body = text:match("^%-%-%-[ \t]*\n(.-)\n%-%-%-[ \t]*$")
    body = body and "" or nil
  end
  if not head then
    return fields, text
  end
  local list_key
  for line in (head .. "\n"):gmatch("([^\n]*)\n") do
    local key, value = line:match("^([%w_%-]+)%s*:%s*(.-)%s*$")
    if key then
      if value == "" then
        fields[key] = {}
        list_key = key
      else
        fields[key] = unquote(value)
        list_key = nil
      end
    else
      local item = line:match("^%s*%-%s+(.-)%s*$")
      if item and list_key then
        table.insert(fields[list_key], unquote(item))
      end
    end
  end
  return fields, body
end

--- A frontmatter value as a list: `a, b`, `[a, b]` or `- a` lines.
---@param value string|string[]|nil
---@return string[]
function M.list(value)
  if type(value) == "table" then
    return value
  end
  local out = {}
  if type(value) ~= "string" then
    return out
  end
  value = value:gsub("^%[", ""):gsub("%]$", "")
  for item in value:gmatch("[^,]+") do
    item = unquote(item)
    if item ~= "" then
      out[#out + 1] = item
    end
  end
  return out
end

--- The first non-empty line of `body`, without markdown heading marks, cut
--- to `width` characters.
function M.summary(body, width)
  for line in (body .. "\n"):gmatch("([^\n]*)\n") do
    line = trim(line:gsub("^#+%s*", ""))
    if line ~= "" then
      if #line > width then
        line = line:sub(1, width - 1) .. "…"
      end
      return line
    end
  end
  return ""
end

--- Files ending in `ext` under `dir` (relative to the working directory or
--- absolute), down to `depth` folders. Each is `{path, name}` where `name` is
--- the relative path without the extension and with `:` between folders.
---@param fs pi.Fs
---@param dir string
---@param ext string e.g. ".md"
---@param depth? integer default 0 (only `dir` itself)
---@return {path: string, name: string}[]
function M.files(fs, dir, ext, depth)
  local out = {}
  local function walk(folder, prefix, left)
    local entries = fs.list(folder)
    if not entries then
      return
    end
    for _, e in ipairs(entries) do
      local path = folder .. "/" .. e.name
      if e.isDir then
        if left > 0 and e.name:sub(1, 1) ~= "." then
          walk(path, prefix .. e.name .. ":", left - 1)
        end
      elseif e.name:sub(-#ext) == ext and #e.name > #ext then
        out[#out + 1] = { path = path, name = prefix .. e.name:sub(1, -#ext - 1) }
      end
    end
  end
  walk(dir, "", depth or 0)
  return out
end

--- The places to look: the project (paths relative to the working
--- directory) and then the home folder. Each is `{dir, label}` where `label`
--- is how the folder is shown (`.claude`, `~/.claude`).
---@param names string[] folder names such as ".claude"
---@return {dir: string, label: string}[]
function M.roots(names)
  local out = {}
  for _, name in ipairs(names) do
    out[#out + 1] = { dir = name, label = name }
  end
  local home = M.home()
  if home ~= "" then
    for _, name in ipairs(names) do
      out[#out + 1] = { dir = home .. "/" .. name, label = "~/" .. name }
    end
  end
  return out
end

return M
