-- The rule set of damage-control.lua. A project may add rules (never remove
-- them) with a file of the same shape at .pi/damage-control-rules.lua.
--
-- bashToolPatterns: checked against the bash tool's command. The command is
--   matched with ";" in front and " " after it, newlines turned into ";", so
--   "[;&|(]%s*rm%s" finds `rm` where a command starts. `pattern` is a Lua
--   pattern or a (nested) list of them, any of which may match; `nocase`
--   lower-cases the command first (write those patterns in lower case);
--   `ask = true` asks the user instead of refusing (refused without a UI).
-- zeroAccessPaths: never read, written, searched or listed, by any tool.
-- readOnlyPaths: readable, but not written by write/edit or bash.
-- noDeletePaths: not removed or moved by bash.
-- allowPaths: exceptions to zeroAccessPaths.
--
-- Path rules: "~/" is the home folder; a trailing "/" means a folder and
-- everything in it; "*" and "?" match within one path component. Rules
-- starting with "/" or "~" are absolute; other rules match the last
-- components of a path (".env", "*.pem") or, for folders, components
-- anywhere in it ("node_modules/").

-- `word` where a command starts, also after sudo, env, xargs, nohup and the like.
local function command(word, rest)
  rest = rest or ""
  local tail = word .. "%f[%s;&|)]" .. rest
  local out = { "[;&|(`]%s*" .. tail }
  for _, prefix in ipairs({ "sudo", "doas", "env", "command", "nohup", "time", "nice", "exec", "xargs" }) do
    out[#out + 1] = "[;&|(`]%s*" .. prefix .. "%s[^;&|]-%f[%w]" .. tail
  end
  return out
end

-- A downloaded script piped into an interpreter.
local function piped_download()
  local out = {}
  for _, fetch in ipairs({ "curl", "wget" }) do
    for _, shell in ipairs({ "sh", "bash", "zsh", "dash", "ksh", "fish", "python3?", "perl", "ruby", "node" }) do
      out[#out + 1] = "%f[%w]" .. fetch .. "%s[^;]*|%s*[%w/]-%f[%w]" .. shell .. "[%s;&|)]"
      out[#out + 1] = "%f[%w]" .. fetch .. "%s[^;]*|%s*sudo%s[^;|]-%f[%w]" .. shell .. "[%s;&|)]"
    end
    out[#out + 1] = "<%(%s*" .. fetch .. "%s"
    out[#out + 1] = "%f[%w]eval%s+[\"']?%$%(%s*" .. fetch .. "%s"
    out[#out + 1] = "%-c%s+[\"']?%$%(%s*" .. fetch .. "%s"
  end
  return out
end

local ARG_END = "[\"']?[%s;&|)]"

return {
  bashToolPatterns = {
    -- Whole-system destruction: always refused.
    { pattern = command("rm", "[^;&|]*%s[\"']?/%*?" .. ARG_END), reason = "rm on the filesystem root" },
    {
      pattern = {
        command("rm", "[^;&|]*%s[\"']?~/?%*?" .. ARG_END),
        command("rm", "[^;&|]*%s[\"']?%${?HOME}?/?%*?" .. ARG_END),
      },
      reason = "rm on the home folder",
    },
    { pattern = "%-%-no%-preserve%-root", reason = "rm --no-preserve-root" },
    { pattern = "%f[%w]dd%s[^;&|]*of=/dev/", reason = "dd writing to a device" },
    { pattern = "%f[%w]mkfs[%.%s]", reason = "mkfs formats a filesystem" },
    { pattern = "%f[%w]wipefs%s", reason = "wipefs erases filesystem signatures" },
    {
      pattern = { ">%s*/dev/[sh]d%a", ">%s*/dev/nvme", ">%s*/dev/disk", ">%s*/dev/mmcblk" },
      reason = "writing to a raw disk device",
    },
    { pattern = ":%(%)%s*{%s*:%s*|%s*:%s*&%s*}", reason = "fork bomb" },
    {
      pattern = {
        "%f[%w]chmod[^;&|]*%s%-%a*R[^;&|]*%s0?777%f[%D]",
        "%f[%w]chmod[^;&|]*%s0?777%s[^;&|]*%-%a*R",
        "%f[%w]chmod[^;&|]*%-%-recursive[^;&|]*%s0?777%f[%D]",
      },
      reason = "chmod -R 777 makes a whole tree writable by everyone",
    },
    { pattern = piped_download(), reason = "piping a downloaded script into an interpreter" },
    {
      pattern = "%f[%w]base64%s+%-%-?d[%w]*[^;]*|%s*[%w/]-%f[%w]%a*sh[%s;&|)]",
      reason = "running a base64-decoded script",
    },
    {
      pattern = {
        command("shutdown"), command("reboot"), command("halt"), command("poweroff"),
        "[;&|(`]%s*init%s+[06]" .. ARG_END,
      },
      reason = "shutting down or rebooting the machine",
    },
    { pattern = { "%f[%w]kill%s+%-9%s+%-1[%s;&|)]", "%f[%w]kill%s+%-KILL%s+%-1[%s;&|)]" }, reason = "killing every process" },
    { pattern = "drop%s+database%f[%W]", nocase = true, reason = "DROP DATABASE" },
    { pattern = "%f[%w]aws%s+s3%s+rm%s[^;&|]*%-%-recursive", reason = "aws s3 rm --recursive" },
    { pattern = "%f[%w]gcloud%s[^;&|]-projects%s+delete", reason = "gcloud projects delete" },
    { pattern = "%f[%w]heroku%s+apps:destroy", reason = "heroku apps:destroy" },

    -- Destructive but sometimes wanted: ask first.
    {
      pattern = { command("rm", "[^;&|]*%s%-%a*[rR]"), command("rm", "[^;&|]*%s%-%-recursive") },
      ask = true,
      reason = "recursive rm",
    },
    {
      pattern = command("rm", "[^;&|]*%s[\"']?%.%.?/?%*?" .. ARG_END),
      ask = true,
      reason = "rm on the whole current or parent folder",
    },
    {
      pattern = { "%f[%w]fdisk%s", "%f[%w]sfdisk%s", "%f[%w]parted%s", "%f[%w]gdisk%s", "%f[%w]sgdisk%s" },
      ask = true,
      reason = "changing disk partitions",
    },
    { pattern = "%f[%w]chmod%s[^;&|]*%f[%w]0?777%f[%D]", ask = true, reason = "chmod 777 makes files writable by everyone" },
    { pattern = { "%f[%w]chown[^;&|]*%s%-%a*R", "%f[%w]chown[^;&|]*%-%-recursive" }, ask = true, reason = "recursive chown" },
    { pattern = "[;&|(`]%s*sudo%s", ask = true, reason = "sudo runs a command as root" },
    {
      pattern = {
        "%f[%w]git%s+push[^;&|]*%s%-%-force[%s;&|]",
        "%f[%w]git%s+push[^;&|]*%s%-%a*f%a*[%s;&|]",
        "%f[%w]git%s+push[^;&|]*%s%+[%w_]",
      },
      ask = true,
      reason = "git push --force rewrites the remote's history",
    },
    {
      pattern = { "%f[%w]git%s+push%s[^;&|]*%-%-delete", "%f[%w]git%s+push%s+%S+%s+:%S" },
      ask = true,
      reason = "deleting a remote branch",
    },
    { pattern = "%f[%w]git%s+reset%s[^;&|]*%-%-hard", ask = true, reason = "git reset --hard discards uncommitted work" },
    { pattern = "%f[%w]git%s+clean%s[^;&|]*%-%a*f", ask = true, reason = "git clean -f deletes untracked files" },
    {
      pattern = {
        "%f[%w]git%s+checkout%s[^;&|]*%-%-%s+%.[%s;&|]",
        "%f[%w]git%s+checkout%s+%.[%s;&|]",
        "%f[%w]git%s+restore[^;&|]*%s%.[%s;&|]",
      },
      ask = true,
      reason = "discarding every uncommitted change",
    },
    { pattern = "%f[%w]git%s+branch[^;&|]*%s%-D[%s;&|]", ask = true, reason = "git branch -D deletes an unmerged branch" },
    { pattern = { "%f[%w]git%s+stash%s+clear", "%f[%w]git%s+stash%s+drop" }, ask = true, reason = "dropping stashed work" },
    {
      pattern = { "%f[%w]git%s+filter%-branch", "%f[%w]git%s+filter%-repo", "%f[%w]git%s+reflog%s+expire" },
      ask = true,
      reason = "rewriting or expiring git history",
    },
    { pattern = { "drop%s+table%f[%W]", "drop%s+schema%f[%W]" }, nocase = true, ask = true, reason = "DROP TABLE / DROP SCHEMA" },
    { pattern = "truncate%s+table%f[%W]", nocase = true, ask = true, reason = "TRUNCATE TABLE" },
    {
      pattern = {
        "delete%s+from%s+[%w_%.\"`]+%s*;",
        "delete%s+from%s+[%w_%.\"`]+%s*[\"']",
        "delete%s+from%s+[%w_%.\"`]+%s*$",
      },
      nocase = true,
      ask = true,
      reason = "DELETE without WHERE",
    },
    { pattern = { "%f[%w]flushall%f[%W]", "%f[%w]flushdb%f[%W]" }, nocase = true, ask = true, reason = "emptying a Redis database" },
    { pattern = "dropdatabase%(", nocase = true, ask = true, reason = "MongoDB dropDatabase" },
    { pattern = "%f[%w]dropdb%s", ask = true, reason = "dropdb deletes a PostgreSQL database" },
    { pattern = "%f[%w]aws%s+s3%s+rb%s", ask = true, reason = "aws s3 rb removes a bucket" },
    {
      pattern = {
        "%f[%w]aws%s+ec2%s+terminate%-instances",
        "%f[%w]aws%s+rds%s+delete%-db",
        "%f[%w]aws%s+cloudformation%s+delete%-stack",
        "%f[%w]aws%s+dynamodb%s+delete%-table",
        "%f[%w]aws%s+iam%s+delete%-",
        "%f[%w]aws%s+lambda%s+delete%-function",
      },
      ask = true,
      reason = "deleting AWS resources",
    },
    { pattern = "%f[%w]gcloud[^;&|]*%sdelete[%s;&|]", ask = true, reason = "deleting Google Cloud resources" },
    { pattern = "%f[%w]gsutil%s[^;&|]*%f[%w]rm%s[^;&|]*%-%a*r", ask = true, reason = "gsutil rm -r" },
    { pattern = "%f[%w]az%s+group%s+delete", ask = true, reason = "az group delete" },
    {
      pattern = {
        "%f[%w]kubectl%s[^;&|]-delete%s+namespaces?%s",
        "%f[%w]kubectl%s[^;&|]-delete%s+ns%s",
        "%f[%w]kubectl%s[^;&|]-delete%s[^;&|]*%-%-all",
      },
      ask = true,
      reason = "deleting Kubernetes namespaces or everything of a kind",
    },
    { pattern = { "%f[%w]helm%s+uninstall%s", "%f[%w]helm%s+delete%s" }, ask = true, reason = "helm uninstall" },
    {
      pattern = {
        "%f[%w]terraform%s+destroy",
        "%f[%w]terraform%s+apply%s[^;&|]*%-auto%-approve",
        "%f[%w]terraform%s+state%s+rm%s",
      },
      ask = true,
      reason = "terraform changes infrastructure without review",
    },
    {
      pattern = { "%f[%w]docker%s+system%s+prune", "%f[%w]docker%s+volume%s+prune", "%f[%w]docker%s+volume%s+rm%s" },
      ask = true,
      reason = "deleting Docker volumes or data",
    },
    { pattern = { "%f[%w]fly%s+apps%s+destroy", "%f[%w]flyctl%s+apps%s+destroy", "%f[%w]vercel%s+remove%s", "%f[%w]vercel%s+rm%s" }, ask = true, reason = "destroying a deployed app" },
    { pattern = { "%f[%w]find%s[^;&|]*%-delete", "%f[%w]find%s[^;&|]*%-exec%s+rm%s" }, ask = true, reason = "find deleting files" },
    { pattern = command("shred"), ask = true, reason = "shred destroys file contents" },
    { pattern = "%f[%w]crontab%s[^;&|]*%-r", ask = true, reason = "crontab -r removes every scheduled job" },
    { pattern = "%f[%w]mv[^;&|]*%s/dev/null" .. ARG_END, ask = true, reason = "moving files to /dev/null" },
    {
      pattern = {
        "%f[%w]npm%s+publish", "%f[%w]pnpm%s+publish", "%f[%w]yarn%s+publish",
        "%f[%w]cargo%s+publish", "%f[%w]twine%s+upload", "%f[%w]gem%s+push",
      },
      ask = true,
      reason = "publishing a package cannot be undone",
    },
  },

  zeroAccessPaths = {
    ".env", ".env.*", ".envrc", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".htpasswd",
    "~/.ssh/", "~/.gnupg/", "~/.aws/", "~/.azure/", "~/.config/gcloud/", "~/.kube/",
    "~/.docker/config.json", "~/.config/gh/hosts.yml", "~/.password-store/",
    "~/.pi/agent/auth.json", "~/.claude/.credentials.json", "~/.codex/auth.json",
    "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519",
    "*.pem", "*.key", "*.p12", "*.pfx", "*.jks", "*.keystore", "*.kdbx", "*.ovpn",
    "credentials.json", "*-credentials.json", "service-account*.json", "secrets.yml", "secrets.yaml",
    "*.tfstate", "*.tfstate.backup", "dump.sql", "*.sql.gz",
    "/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d/",
  },

  allowPaths = { ".env.example", ".env.sample", ".env.template", ".env.dist" },

  readOnlyPaths = {
    "/etc/", "/usr/", "/bin/", "/sbin/", "/lib/", "/boot/", "/System/", "/Library/",
    "~/.bashrc", "~/.bash_profile", "~/.profile", "~/.zshrc", "~/.zprofile", "~/.config/fish/config.fish",
    "~/.gitconfig",
    "node_modules/", ".venv/", "__pycache__/", "dist/", ".next/", "target/debug/", "target/release/",
    "*.lock", "package-lock.json", "pnpm-lock.yaml", "bun.lockb", "go.sum",
    "*.min.js", "*.min.css", "*.map",
  },

  noDeletePaths = {
    ".git/", ".github/", ".gitlab-ci.yml", ".gitignore", ".pi/",
    "LICENSE", "LICENSE.*", "COPYING", "README.md", "CHANGELOG.md",
    "Dockerfile", "docker-compose.yml", "docker-compose.yaml", "compose.yaml", "Jenkinsfile", "Makefile",
    "package.json", "Cargo.toml", "go.mod", "pyproject.toml",
  },
}
