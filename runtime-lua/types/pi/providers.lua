---@meta
-- LuaLS annotations for providers an extension registers (`pi.registerProvider`), their
-- logins and the streams they produce, see docs/custom-provider.md.

---@class pi.ProviderConfig
---@field name? string
---@field baseUrl? string required with models (not with streamSimple)
---@field apiKey? string environment variable name or the key itself
---@field api? string a built-in wire protocol ("anthropic-messages", "openai-completions", ...), required with models; with streamSimple a name of its own (default: the provider's name)
---@field headers? table<string, string>
---@field models? pi.Model[]
---@field streamSimple? fun(model: pi.Model, context: pi.StreamContext, options: pi.StreamOptions, stream: pi.ProviderStream) produce the reply yourself, on the extension thread; error(...) fails the request
---@field oauth? pi.ProviderOAuth a subscription login /login offers

---@class pi.OAuthCredentials stored in auth.json; extra fields are kept
---@field access string
---@field refresh string
---@field expires integer epoch milliseconds

---@class pi.OAuthLoginCallbacks
---@field onAuth fun(info: {url: string, instructions?: string}) show the page to open
---@field onPrompt fun(prompt: {message: string}): string ask the user for a line (raises when cancelled)
---@field onProgress fun(message: string)

---@class pi.ProviderOAuth
---@field name? string shown by /login (default: the provider's name)
---@field login fun(callbacks: pi.OAuthLoginCallbacks): pi.OAuthCredentials
---@field refreshToken fun(credentials: pi.OAuthCredentials): pi.OAuthCredentials called when the access token expired
---@field getApiKey? fun(credentials: pi.OAuthCredentials): string what requests send (default: the access token)

---@class pi.StreamContext
---@field systemPrompt? string
---@field messages table[] user, assistant and toolResult messages
---@field tools {name: string, description: string, parameters: table}[]

---@class pi.StreamOptions
---@field apiKey? string the resolved key (or OAuth token)
---@field maxTokens? integer
---@field temperature? number
---@field reasoning? string thinking level
---@field sessionId? string
---@field headers? table<string, string>
---@field signal pi.Signal fires when the user aborts

---@class pi.StreamEvent
---@field type "start"|"text_start"|"text_delta"|"text_end"|"thinking_start"|"thinking_delta"|"thinking_end"|"toolcall_start"|"toolcall_delta"|"toolcall_end"|"usage"|"done"|"error"
---@field delta? string text_delta, thinking_delta, toolcall_delta (a fragment of the arguments' JSON)
---@field id? string toolcall_start
---@field name? string toolcall_start
---@field reason? "stop"|"length"|"toolUse" done
---@field usage? {input?: integer, output?: integer, cacheRead?: integer, cacheWrite?: integer, totalTokens?: integer} usage, done
---@field errorMessage? string error

---@class pi.ProviderStream the reply being built; pi keeps the partial message and emits the events
---@field push fun(event: pi.StreamEvent)
---@field text fun(delta: string) append text (opens a text block when needed)
---@field thinking fun(delta: string) append thinking
---@field toolCall fun(id: string, name: string, arguments?: table) a whole tool call
---@field done fun(reason?: "stop"|"length"|"toolUse") finish (toolUse is implied when there are tool calls)
---@field error fun(message: string) fail the request
---@field forward fun(api: string, options?: {baseUrl?: string, apiKey?: string, headers?: table<string, string>, model?: string}) stream this reply with one of pi's wire protocols (call it before any other event)
