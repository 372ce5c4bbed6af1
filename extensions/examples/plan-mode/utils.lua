-- Plan mode's pure functions: which bash commands count as read-only, and how
-- numbered plan steps and [DONE:n] markers are read from replies.
local M = {}

-- Words that change something wherever they appear (as whole words).
local DESTRUCTIVE_WORDS = {
  "rm", "rmdir", "mv", "cp", "mkdir", "touch", "chmod", "chown", "chgrp", "ln", "tee", "truncate", "dd",
  "shred", "sudo", "su", "kill", "pkill", "killall", "reboot", "shutdown", "vi", "vim", "nano", "emacs",
  "code", "subl",
}
-- A tool followed by one of its changing subcommands.
local DESTRUCTIVE_SUBCOMMANDS = {
  npm = { "install", "uninstall", "update", "ci", "link", "publish" },
  yarn = { "add", "remove", "install", "publish" },
  pnpm = { "add", "remove", "install", "publish" },
  pip = { "install", "uninstall" },
  apt = { "install", "remove", "purge", "update", "upgrade" },
  ["apt-get"] = { "install", "remove", "purge", "update", "upgrade" },
  brew = { "install", "uninstall", "upgrade" },
  git = { "add", "commit", "push", "pull", "merge", "rebase", "reset", "checkout", "stash", "cherry-pick",
    "revert", "tag", "init", "clone" },
  systemctl = { "start", "stop", "restart", "enable", "disable" },
}
-- Commands that only look: the command line must start with one of these.
local SAFE_STARTS = {
  "cat", "head", "tail", "less", "more", "grep", "find", "ls", "pwd", "echo", "printf", "wc", "sort", "uniq",
  "diff", "file", "stat", "du", "df", "tree", "which", "whereis", "type", "env", "printenv", "uname", "whoami",
  "id", "date", "cal", "uptime", "ps", "top", "htop", "free", "jq", "awk", "rg", "fd", "bat", "eza",
}
local SAFE_PREFIXES = {
  "git status", "git log", "git diff", "git show", "git branch", "git remote", "git config --get", "git ls-",
  "npm list", "npm ls", "npm view", "npm info", "npm search", "npm outdated", "npm audit",
  "yarn list", "yarn info", "yarn why", "yarn audit", "node --version", "python --version", "curl ",
  "wget -o -", "wget -o-", "sed -n",
}

local function has_word(text, word)
  return text:find("%f[%w_%-]" .. word:gsub("%-", "%%-") .. "%f[^%w_%-]") ~= nil
end

local function destructive(command)
  local lower = command:lower()
  for _, word in ipairs(DESTRUCTIVE_WORDS) do
    if has_word(lower, word) then return true end
  end
  for tool, subs in pairs(DESTRUCTIVE_SUBCOMMANDS) do
    for _, sub in ipairs(subs) do
      if lower:find("%f[%w_%-]" .. tool:gsub("%-", "%%-") .. "%s+" .. sub:gsub("%-", "%%-")) then return true end
    end
  end
  if lower:find("git%s+branch%s+%-[dD]") or lower:find("service%s+%S+%s+st[ao][rp]") or lower:find("service%s+%S+%s+restart") then
    return true
  end
  -- Output redirection: a single > (not >>, not <> or 2>&1-style merges alone), or >>.
  if lower:find(">>") then return true end
  for i = 1, #lower do
    if lower:sub(i, i) == ">" and lower:sub(i - 1, i - 1) ~= "<" and lower:sub(i + 1, i + 1) ~= ">" then
      return true
    end
  end
  return false
end

local function safe(command)
  local trimmed = command:match("^%s*(.-)$")
  local lower = trimmed:lower():gsub("%s+", " ")
  for _, word in ipairs(SAFE_STARTS) do
    if trimmed:find("^" .. word .. "%f[^%w_%-]") then return true end
  end
  for _, prefix in ipairs(SAFE_PREFIXES) do
    if lower:sub(1, #prefix) == prefix then return true end
  end
  return false
end

--- Whether plan mode lets `command` run: allow-listed and changing nothing.
function M.isSafeCommand(command)
  return safe(command) and not destructive(command)
end

local LEADING_VERBS = {
  "use", "run", "execute", "create", "write", "read", "check", "verify", "update", "modify", "add", "remove",
  "delete", "install",
}

--- A plan step shortened for the widget: no markdown, no leading verb, 50 columns at most.
function M.cleanStepText(text)
  local s = text:gsub("%*%*?([^*]+)%*%*?", "%1"):gsub("`([^`]+)`", "%1")
  local first, rest = s:match("^(%a+)%s+(.*)$")
  if first then
    for _, verb in ipairs(LEADING_VERBS) do
      if first:lower() == verb then
        s = rest:gsub("^[Tt][Hh][Ee]%s+", "")
        break
      end
    end
  end
  s = s:gsub("%s+", " "):match("^%s*(.-)%s*$")
  if #s > 0 then s = s:sub(1, 1):upper() .. s:sub(2) end
  if utf8.len(s) and utf8.len(s) > 50 then s = s:sub(1, utf8.offset(s, 48) - 1) .. "..." end
  return s
end

--- The numbered steps under a "Plan:" header, as {step, text, completed}.
function M.extractTodoItems(message)
  local items = {}
  local after = message:match("[Pp][Ll][Aa][Nn]:%**[ \t]*\n(.*)$")
  if not after then return items end
  for line in (after .. "\n"):gmatch("(.-)\n") do
    local text = line:match("^%s*%d+[.)]%s+%**([^*\n]+)")
    if text then
      text = text:match("^%s*(.-)%s*$")
      local first = text:sub(1, 1)
      if #text > 5 and first ~= "`" and first ~= "/" and first ~= "-" then
        local cleaned = M.cleanStepText(text)
        if #cleaned > 3 then
          items[#items + 1] = { step = #items + 1, text = cleaned, completed = false }
        end
      end
    end
  end
  return items
end

--- Mark the steps named by [DONE:n] in `text`; returns how many markers there were.
function M.markCompletedSteps(text, items)
  local count = 0
  for n in text:gmatch("%[[Dd][Oo][Nn][Ee]:(%d+)%]") do
    count = count + 1
    for _, item in ipairs(items) do
      if item.step == tonumber(n) then item.completed = true end
    end
  end
  return count
end

return M
