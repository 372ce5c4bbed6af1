-- GitLab Duo: Claude and GPT models through GitLab's AI gateway.
--
-- A GitLab token (from /login gitlab-duo, or GITLAB_TOKEN=glpat-...) is traded for a
-- short-lived gateway token before requests; the reply itself is streamed by pi's own
-- Anthropic Messages or OpenAI Responses protocol (`stream.forward`).
--
--   pi -e extensions/examples/custom-provider-gitlab-duo
--
-- GITLAB_URL and GITLAB_AI_GATEWAY_URL point it at another GitLab instance. HTTP goes
-- through curl; the login's PKCE challenge is computed with openssl.
local GITLAB = (os.getenv("GITLAB_URL") or "https://gitlab.com"):gsub("/+$", "")
local GATEWAY = (os.getenv("GITLAB_AI_GATEWAY_URL") or "https://cloud.gitlab.com"):gsub("/+$", "")
local CLIENT_ID = os.getenv("GITLAB_OAUTH_CLIENT_ID")
  or "da4edff2e6ebd2bc3208611e2768bc1c1dd7be791dc5ff26ca34ca9ee44f7d4b"
local REDIRECT_URI = "http://127.0.0.1:8080/callback"
local GATEWAY_TOKEN_TTL_MS = 25 * 60 * 1000

local ANTHROPIC = { api = "anthropic-messages", baseUrl = GATEWAY .. "/ai/v1/proxy/anthropic" }
local OPENAI = { api = "openai-responses", baseUrl = GATEWAY .. "/ai/v1/proxy/openai/v1" }

---@param id string
---@param name string
---@param backend table
---@param cost number[]
---@param maxTokens integer
local function model(id, name, backend, cost, contextWindow, maxTokens)
  return {
    id = id, name = name, backend = backend, reasoning = true, input = { "text", "image" },
    cost = { input = cost[1], output = cost[2], cacheRead = cost[3], cacheWrite = cost[4] },
    contextWindow = contextWindow, maxTokens = maxTokens,
  }
end

local MODELS = {
  model("claude-opus-4-5-20251101", "Claude Opus 4.5", ANTHROPIC, { 15, 75, 1.5, 18.75 }, 200000, 32000),
  model("claude-sonnet-4-5-20250929", "Claude Sonnet 4.5", ANTHROPIC, { 3, 15, 0.3, 3.75 }, 200000, 16384),
  model("claude-haiku-4-5-20251001", "Claude Haiku 4.5", ANTHROPIC, { 1, 5, 0.1, 1.25 }, 200000, 8192),
  model("gpt-5.1-2025-11-13", "GPT-5.1", OPENAI, { 2.5, 10, 0, 0 }, 128000, 16384),
  model("gpt-5-mini-2025-08-07", "GPT-5 Mini", OPENAI, { 0.15, 0.6, 0, 0 }, 128000, 16384),
  model("gpt-5-codex", "GPT-5 Codex", OPENAI, { 2.5, 10, 0, 0 }, 128000, 16384),
}

local function url_encode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end

local function form(fields)
  local parts = {}
  for _, kv in ipairs(fields) do parts[#parts + 1] = kv[1] .. "=" .. url_encode(kv[2]) end
  return table.concat(parts, "&")
end

local function setup(pi)
  -- POST `body` to `url`; returns the status and the response text.
  local function post(url, headers, body)
    local args = { "-sS", "-X", "POST", "-w", "\n%{http_code}", url, "--data-binary", body }
    for name, value in pairs(headers) do
      args[#args + 1] = "-H"
      args[#args + 1] = name .. ": " .. value
    end
    local run = pi.exec("curl", args, { timeout = 30000 })
    if run.code ~= 0 then error("Cannot reach " .. url .. ": " .. run.stderr, 0) end
    local text, status = run.stdout:match("^(.*)\n(%d+)$")
    return tonumber(status), text or ""
  end

  local function tokens(status, text, what)
    if status ~= 200 then error(what .. " failed: " .. tostring(status) .. " " .. text, 0) end
    local data = pi.json.decode(text)
    return {
      access = data.access_token,
      refresh = data.refresh_token,
      expires = math.floor(((data.created_at or os.time()) + data.expires_in) * 1000 - 5 * 60 * 1000),
    }
  end

  local gateway ---@type {token: string, headers: table<string, string>, expiresAt: integer, for: string}|nil

  local function gateway_token(gitlab_token)
    local now = os.time() * 1000
    if gateway and gateway["for"] == gitlab_token and gateway.expiresAt > now then return gateway end
    local status, text = post(GITLAB .. "/api/v4/ai/third_party_agents/direct_access", {
      Authorization = "Bearer " .. gitlab_token,
      ["Content-Type"] = "application/json",
    }, '{"feature_flags":{"DuoAgentPlatformNext":true}}')
    if status == 403 then
      error("GitLab Duo access denied. Ensure GitLab Duo is enabled for your account. Error: " .. text, 0)
    elseif status ~= 200 then
      error("Failed to get direct access token: " .. tostring(status) .. " " .. text, 0)
    end
    local data = pi.json.decode(text)
    gateway = { token = data.token, headers = data.headers or {}, expiresAt = now + GATEWAY_TOKEN_TTL_MS, ["for"] = gitlab_token }
    return gateway
  end

  local function pkce()
    local bytes = {}
    for i = 1, 32 do bytes[i] = string.char(math.random(0, 255)) end
    local verifier = table.concat(bytes):gsub(".", function(c) return string.format("%02x", c:byte()) end)
    local run = pi.exec("sh", { "-c",
      "printf %s \"$1\" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d '='",
      "sh", verifier })
    if run.code ~= 0 then error("openssl is needed for the login: " .. run.stderr, 0) end
    return verifier, (run.stdout:gsub("%s+$", ""))
  end

  local by_id = {}
  for _, m in ipairs(MODELS) do by_id[m.id] = m end

  pi.registerProvider("gitlab-duo", {
    name = "GitLab Duo",
    baseUrl = GATEWAY,
    api = "gitlab-duo-api",
    apiKey = "GITLAB_TOKEN",
    models = MODELS,
    oauth = {
      name = "GitLab Duo",
      login = function(callbacks)
        local verifier, challenge = pkce()
        local state = tostring(math.random(1, 1 << 40))
        callbacks.onAuth({ url = GITLAB .. "/oauth/authorize?" .. form({
          { "client_id", CLIENT_ID }, { "redirect_uri", REDIRECT_URI }, { "response_type", "code" },
          { "scope", "api" }, { "code_challenge", challenge }, { "code_challenge_method", "S256" },
          { "state", state },
        }) })
        local pasted = callbacks.onPrompt({ message = "Paste the callback URL:" })
        local code = pasted:match("[?&]code=([^&#]+)")
        if not code then error("No authorization code found in callback URL", 0) end
        local status, text = post(GITLAB .. "/oauth/token", { ["Content-Type"] = "application/x-www-form-urlencoded" },
          form({ { "client_id", CLIENT_ID }, { "grant_type", "authorization_code" }, { "code", code },
            { "code_verifier", verifier }, { "redirect_uri", REDIRECT_URI } }))
        gateway = nil
        return tokens(status, text, "Token exchange")
      end,
      refreshToken = function(credentials)
        local status, text = post(GITLAB .. "/oauth/token", { ["Content-Type"] = "application/x-www-form-urlencoded" },
          form({ { "client_id", CLIENT_ID }, { "grant_type", "refresh_token" }, { "refresh_token", credentials.refresh } }))
        gateway = nil
        return tokens(status, text, "Token refresh")
      end,
    },
    streamSimple = function(model, _, options, stream)
      local gitlab_token = options.apiKey
      if not gitlab_token or gitlab_token == "" then
        error("No GitLab access token. Run /login gitlab-duo or set GITLAB_TOKEN", 0)
      end
      local cfg = by_id[model.id]
      if not cfg then error("Unknown model: " .. model.id, 0) end
      local access = gateway_token(gitlab_token)
      local headers = { Authorization = "Bearer " .. access.token }
      for name, value in pairs(access.headers) do headers[name] = value end
      stream.forward(cfg.backend.api, { baseUrl = cfg.backend.baseUrl, apiKey = "gitlab-duo", headers = headers })
    end,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "sh", "curl" }, env = { "GITLAB_*" } },
  setup = setup,
}
