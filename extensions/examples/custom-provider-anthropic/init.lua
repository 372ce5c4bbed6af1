-- A provider with its own api name ("custom-anthropic-api") and its own streaming:
-- streamSimple speaks Anthropic's Messages API itself (curl streams the server-sent
-- events; each one becomes a pi stream event), with a Claude Pro/Max login for /login
-- and an API key from CUSTOM_ANTHROPIC_API_KEY as the alternative.
--
--   CUSTOM_ANTHROPIC_API_KEY=sk-ant-... pi -e extensions/examples/custom-provider-anthropic
--   pi -e extensions/examples/custom-provider-anthropic   # then /login custom-anthropic
--
-- Then /model custom-anthropic/claude-sonnet-4-5. CUSTOM_ANTHROPIC_BASE_URL and
-- CUSTOM_ANTHROPIC_OAUTH_URL point it at other servers. The login's PKCE challenge is
-- computed with openssl.
local BASE_URL = (os.getenv("CUSTOM_ANTHROPIC_BASE_URL") or "https://api.anthropic.com"):gsub("/+$", "")
local OAUTH = os.getenv("CUSTOM_ANTHROPIC_OAUTH_URL")
local AUTHORIZE_URL = (OAUTH or "https://claude.ai") .. "/oauth/authorize"
local TOKEN_URL = (OAUTH or "https://console.anthropic.com") .. "/v1/oauth/token"
local CLIENT_ID = "9d1c250a-e61b-44d9-88ed-5944d1962f5e"
local REDIRECT_URI = "https://console.anthropic.com/oauth/code/callback"
local SCOPES = "org:create_api_key user:profile user:inference"

local STOP = { end_turn = "stop", stop_sequence = "stop", pause_turn = "stop", max_tokens = "length", tool_use = "toolUse" }

local function url_encode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", c:byte()) end))
end

-- pi's messages as Anthropic's.
local function to_anthropic(context)
  local messages = {}
  for _, m in ipairs(context.messages) do
    local blocks = {}
    if m.role == "user" then
      if type(m.content) == "string" then
        blocks = { { type = "text", text = m.content } }
      else
        for _, b in ipairs(m.content) do
          if b.type == "text" then blocks[#blocks + 1] = { type = "text", text = b.text }
          elseif b.type == "image" then
            blocks[#blocks + 1] = { type = "image", source = { type = "base64", media_type = b.mimeType, data = b.data } }
          end
        end
      end
      messages[#messages + 1] = { role = "user", content = blocks }
    elseif m.role == "assistant" then
      for _, b in ipairs(m.content) do
        if b.type == "text" and b.text ~= "" then blocks[#blocks + 1] = { type = "text", text = b.text }
        elseif b.type == "toolCall" then
          blocks[#blocks + 1] = { type = "tool_use", id = b.id, name = b.name, input = b.arguments }
        end
      end
      if #blocks > 0 then messages[#messages + 1] = { role = "assistant", content = blocks } end
    elseif m.role == "toolResult" then
      local parts = {}
      for _, b in ipairs(m.content) do if b.type == "text" then parts[#parts + 1] = b.text end end
      local result = { type = "tool_result", tool_use_id = m.toolCallId, content = table.concat(parts, "\n"), is_error = m.isError }
      local last = messages[#messages]
      if last and last.role == "user" and last.content[1] and last.content[1].type == "tool_result" then
        last.content[#last.content + 1] = result
      else
        messages[#messages + 1] = { role = "user", content = { result } }
      end
    end
  end
  local tools = {}
  for _, t in ipairs(context.tools or {}) do
    tools[#tools + 1] = { name = t.name, description = t.description, input_schema = t.parameters }
  end
  return messages, tools
end

local function setup(pi)
  local function pkce()
    local bytes = {}
    for i = 1, 32 do bytes[i] = string.format("%02x", math.random(0, 255)) end
    local verifier = table.concat(bytes)
    local run = pi.exec("sh", { "-c",
      "printf %s \"$1\" | openssl dgst -sha256 -binary | openssl base64 -A | tr '+/' '-_' | tr -d '='",
      "sh", verifier })
    if run.code ~= 0 then error("openssl is needed for the login: " .. run.stderr, 0) end
    return verifier, (run.stdout:gsub("%s+$", ""))
  end

  local function token_request(body)
    local run = pi.exec("curl", { "-sS", "-X", "POST", "-w", "\n%{http_code}", TOKEN_URL,
      "-H", "Content-Type: application/json", "--data-binary", pi.json.encode(body) }, { timeout = 30000 })
    if run.code ~= 0 then error("Cannot reach " .. TOKEN_URL .. ": " .. run.stderr, 0) end
    local text, status = run.stdout:match("^(.*)\n(%d+)$")
    if status ~= "200" then error("Token request failed: " .. tostring(status) .. " " .. tostring(text), 0) end
    local data = pi.json.decode(text)
    return {
      refresh = data.refresh_token,
      access = data.access_token,
      expires = os.time() * 1000 + data.expires_in * 1000 - 5 * 60 * 1000,
    }
  end

  local function stream_anthropic(model, context, options, stream)
    local key = options.apiKey
    if not key or key == "" then error("No key: set CUSTOM_ANTHROPIC_API_KEY or run /login custom-anthropic", 0) end
    local messages, tools = to_anthropic(context)
    local body = { model = model.id, max_tokens = options.maxTokens or model.maxTokens, stream = true, messages = messages }
    if context.systemPrompt then body.system = context.systemPrompt end
    if #tools > 0 then body.tools = tools end
    local args = { "-sS", "-N", "-X", "POST", BASE_URL .. "/v1/messages",
      "-H", "content-type: application/json", "-H", "anthropic-version: 2023-06-01", "--data-binary", "@-" }
    local function header(h) args[#args + 1] = "-H"; args[#args + 1] = h end
    if key:find("sk-ant-oat", 1, true) then
      header("authorization: Bearer " .. key)
      header("anthropic-beta: oauth-2025-04-20")
    else
      header("x-api-key: " .. key)
    end

    local failure, reason, usage = nil, "stop", {}
    local proc = pi.spawn("curl", args, {
      stdin = pi.json.encode(body),
      signal = options.signal,
      onStdout = function(line)
        local data = line:match("^data: (.*)$")
        if not data then
          if line:sub(1, 1) == "{" then failure = line end
          return
        end
        local ok, ev = pcall(pi.json.decode, data)
        if not ok or type(ev) ~= "table" then return end
        if ev.type == "message_start" then
          local u = ev.message and ev.message.usage or {}
          usage.input, usage.cacheRead, usage.cacheWrite = u.input_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens
          stream.push({ type = "start" })
        elseif ev.type == "content_block_start" then
          local block = ev.content_block
          if block.type == "text" then stream.push({ type = "text_start" })
          elseif block.type == "thinking" then stream.push({ type = "thinking_start" })
          elseif block.type == "tool_use" then stream.push({ type = "toolcall_start", id = block.id, name = block.name })
          end
        elseif ev.type == "content_block_delta" then
          local d = ev.delta
          if d.type == "text_delta" then stream.push({ type = "text_delta", delta = d.text })
          elseif d.type == "thinking_delta" then stream.push({ type = "thinking_delta", delta = d.thinking })
          elseif d.type == "input_json_delta" then stream.push({ type = "toolcall_delta", delta = d.partial_json })
          end
        elseif ev.type == "content_block_stop" then
          stream.push({ type = "text_end" })
        elseif ev.type == "message_delta" then
          if ev.delta and ev.delta.stop_reason then reason = STOP[ev.delta.stop_reason] or "stop" end
          if ev.usage then usage.output = ev.usage.output_tokens end
        elseif ev.type == "error" then
          failure = ev.error and ev.error.message or data
        end
      end,
    })
    local result = proc.wait()
    if options.signal.aborted then return end
    if failure then error(failure, 0) end
    if result.code ~= 0 then error("curl failed: " .. result.stderr, 0) end
    usage.totalTokens = (usage.input or 0) + (usage.output or 0) + (usage.cacheRead or 0) + (usage.cacheWrite or 0)
    stream.push({ type = "done", reason = reason, usage = usage })
  end

  pi.registerProvider("custom-anthropic", {
    baseUrl = BASE_URL,
    apiKey = "CUSTOM_ANTHROPIC_API_KEY",
    api = "custom-anthropic-api",
    models = {
      { id = "claude-opus-4-5", name = "Claude Opus 4.5 (Custom)", reasoning = true, input = { "text", "image" },
        cost = { input = 5, output = 25, cacheRead = 0.5, cacheWrite = 6.25 }, contextWindow = 200000, maxTokens = 64000 },
      { id = "claude-sonnet-4-5", name = "Claude Sonnet 4.5 (Custom)", reasoning = true, input = { "text", "image" },
        cost = { input = 3, output = 15, cacheRead = 0.3, cacheWrite = 3.75 }, contextWindow = 200000, maxTokens = 64000 },
    },
    oauth = {
      name = "Custom Anthropic (Claude Pro/Max)",
      login = function(callbacks)
        local verifier, challenge = pkce()
        local query = {}
        for _, kv in ipairs({ { "code", "true" }, { "client_id", CLIENT_ID }, { "response_type", "code" },
          { "redirect_uri", REDIRECT_URI }, { "scope", SCOPES }, { "code_challenge", challenge },
          { "code_challenge_method", "S256" }, { "state", verifier } }) do
          query[#query + 1] = kv[1] .. "=" .. url_encode(kv[2])
        end
        callbacks.onAuth({ url = AUTHORIZE_URL .. "?" .. table.concat(query, "&") })
        local pasted = callbacks.onPrompt({ message = "Paste the authorization code:" })
        local code, state = pasted:match("^%s*([^#%s]+)#?([^%s]*)")
        if not code then error("No authorization code given", 0) end
        return token_request({ grant_type = "authorization_code", client_id = CLIENT_ID, code = code,
          state = state ~= "" and state or nil, redirect_uri = REDIRECT_URI, code_verifier = verifier })
      end,
      refreshToken = function(credentials)
        return token_request({ grant_type = "refresh_token", client_id = CLIENT_ID, refresh_token = credentials.refresh })
      end,
      getApiKey = function(credentials) return credentials.access end,
    },
    streamSimple = stream_anthropic,
  })
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "sh", "curl" }, env = { "CUSTOM_ANTHROPIC_*" } },
  setup = setup,
}
