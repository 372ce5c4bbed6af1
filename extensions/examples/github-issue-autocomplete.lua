-- Completes `#1234` with the open issues of the GitHub repository you are in:
-- the latest 100 are loaded once per session with the GitHub CLI (`gh`), then
-- filtered locally as you type. Anything else falls through to pi's own
-- completion (`/` commands, `@` paths).
--
--   pi -e extensions/examples/github-issue-autocomplete.lua
local MAX_ISSUES = 100
local MAX_SUGGESTIONS = 20

--- `owner/name` of a GitHub remote URL (SSH or HTTPS), or nil.
local function github_repo(url)
  local repo = url:match("^git@github%.com:([^/]+/[^/]+)$")
    or url:match("^https?://github%.com/([^/]+/[^/]+)$")
  if repo then repo = repo:gsub("%.git$", "") end
  return repo
end

local function item(issue)
  return {
    value = "#" .. issue.number,
    label = "#" .. issue.number,
    description = "[" .. string.lower(issue.state) .. "] " .. issue.title,
  }
end

--- Issues whose number starts with the query, else whose number and title contain every
--- character of it in order (case-insensitive).
local function filter(issues, query)
  local out = {}
  local function add(issue)
    if #out < MAX_SUGGESTIONS then out[#out + 1] = item(issue) end
  end
  if query == "" then
    for _, issue in ipairs(issues) do add(issue) end
    return out
  end
  if query:match("^%d+$") then
    for _, issue in ipairs(issues) do
      if tostring(issue.number):sub(1, #query) == query then add(issue) end
    end
    if #out > 0 then return out end
  end
  local pattern = query:lower():gsub("%W", "%%%0"):gsub("(%%?.)", "%1.-")
  for _, issue in ipairs(issues) do
    if (issue.number .. " " .. issue.title):lower():find(pattern) then add(issue) end
  end
  return out
end

---@param pi pi.API
local function setup(pi)
  pi.on("session_start", function(_, ctx)
    local remotes = pi.exec("git", { "remote", "-v" }, { cwd = ctx.cwd, timeout = 5000 })
    if remotes.code ~= 0 then
      ctx.ui.notify("github-issue-autocomplete: cwd is not a git repository", "error")
      return
    end
    local repo
    for line in remotes.stdout:gmatch("[^\n]+") do
      local url = line:match("^%S+%s+(%S+)")
      repo = repo or (url and github_repo(url))
    end
    if not repo then
      ctx.ui.notify("github-issue-autocomplete: cwd is not a GitHub repository", "error")
      return
    end

    local issues, failed = nil, false
    local function load()
      if issues or failed then return issues end
      local result = pi.exec("gh", {
        "issue", "list", "--repo", repo, "--state", "open",
        "--limit", tostring(MAX_ISSUES), "--json", "number,title,state",
      }, { cwd = ctx.cwd, timeout = 5000 })
      if result.code ~= 0 then
        failed = true
        local details = result.stderr:match("^%s*(.-)%s*$")
        if details == "" then details = "exit code " .. result.code end
        ctx.ui.notify("github-issue-autocomplete: failed to load issues: " .. details, "error")
        return nil
      end
      local ok, parsed = pcall(pi.json.decode, result.stdout)
      if not ok or type(parsed) ~= "table" then
        failed = true
        ctx.ui.notify("github-issue-autocomplete: failed to parse gh issue list output", "error")
        return nil
      end
      issues = parsed
      return issues
    end

    ctx.ui.addAutocompleteProvider(function(current)
      return {
        getSuggestions = function(lines, line, col, options)
          local token = (lines[line] or ""):sub(1, col):match("#([^%s#]*)$")
          local before = token and (lines[line] or ""):sub(1, col - #token - 1)
          if not token or (before ~= "" and not before:match("[ \t]$")) then
            return current.getSuggestions(lines, line, col, options)
          end
          local list = load()
          local found = list and filter(list, token) or {}
          if #found == 0 then return current.getSuggestions(lines, line, col, options) end
          return { prefix = "#" .. token, items = found }
        end,
      }
    end)
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "git", "gh" } },
  setup = setup,
}
