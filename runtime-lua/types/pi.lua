---@meta
-- LuaLS type annotations for pi extensions. Point your editor at this
-- folder (e.g. `.luarc.json`: {"workspace.library": ["<pi>/runtime-lua/types"]})
-- to get completion and checks for `pi`, `ctx` and the event payloads.

---@alias pi.EventName
---| "resources_discover" # after session_start; may return extra skill/prompt/theme paths
---| "session_start" # startup, reload, new, resume, fork
---| "session_before_switch" # before /new or /resume; may cancel
---| "session_before_fork" # before /fork or /clone; may cancel
---| "session_before_compact" # before compaction; may cancel
---| "session_compact" # after compaction
---| "session_before_tree" # before /tree navigation; may cancel
---| "session_tree" # after /tree navigation
---| "session_shutdown" # before the extension runtime is torn down
---| "before_agent_start" # may chain systemPrompt and inject a message
---| "agent_start"
---| "agent_end"
---| "turn_start"
---| "turn_end"
---| "message_start"
---| "message_update"
---| "message_end"
---| "tool_execution_start"
---| "tool_execution_update"
---| "tool_execution_end"
---| "checkpoint" # the run that is ending changed files; their state before it was kept (before agent_end)
---| "run_limit" # a run reached a limit (repeated failing call, turns, requests); may continue or raise it
---| "context" # may replace the messages sent to the model
---| "before_provider_request" # may replace the provider request body
---| "after_provider_response" # status and headers
---| "model_select"
---| "thinking_level_select"
---| "tool_call" # may block or change event.input
---| "permission" # may allow, ask about or deny any tool call (the strictest answer wins)
---| "tool_result" # may patch content/details/isError (handlers chain)
---| "user_bash" # may replace a `!command` result
---| "input" # may transform or handle the user's text
---| "project_trust"

---@alias pi.ThinkingLevel "off"|"minimal"|"low"|"medium"|"high"|"xhigh"

---@class pi.TextContent
---@field type "text"
---@field text string

---@class pi.ImageContent
---@field type "image"
---@field data string base64
---@field mimeType string

---@alias pi.Content pi.TextContent|pi.ImageContent

---@class pi.Message
---@field role "user"|"assistant"|"toolResult"|"custom"|"bashExecution"|string
---@field content string|pi.Content[]
---@field timestamp integer
---@field customType? string
---@field details? table

---@class pi.Model
---@field id string
---@field name string
---@field api string `anthropic-messages`, `openai-completions`, ...
---@field provider string
---@field baseUrl string
---@field reasoning boolean
---@field input string[]
---@field contextWindow integer
---@field maxTokens integer

---@class pi.Event
---@field type pi.EventName
---@field reason? string session_start/shutdown and resources_discover: why; run_limit: "repeated_tool_failure"|"max_turns"|"max_requests"
---@field previousSessionFile? string session_start after new/resume/fork
---@field targetSessionFile? string session_before_switch (resume), session_shutdown
---@field cwd? string resources_discover, user_bash
---@field prompt? string before_agent_start
---@field images? pi.ImageContent[] before_agent_start, input
---@field systemPrompt? string before_agent_start (chained)
---@field text? string input
---@field source? string input: "interactive"|"rpc"|"extension"; model_select: "set"|"cycle"|"restore"
---@field message? pi.Message message_* and turn_end
---@field messages? pi.Message[] context, agent_end
---@field toolResults? pi.Message[] turn_end
---@field toolCallId? string tool_*, permission
---@field toolName? string tool_*, run_limit, permission
---@field input? table tool_call (mutable), tool_result, permission
---@field subject? string permission: the command part or path the rules judged
---@field decision? "allow"|"ask"|"deny" permission: what the rules decided so far
---@field rule? string permission: the rule that decided it, if any
---@field args? table tool_execution_*, run_limit
---@field partialResult? table tool_execution_update
---@field result? table tool_execution_end
---@field content? pi.Content[] tool_result
---@field details? any tool_result
---@field isError? boolean tool_result, tool_execution_end
---@field payload? table before_provider_request
---@field status? integer after_provider_response
---@field headers? table<string, string> after_provider_response
---@field id? string checkpoint: the checkpoint's id
---@field entryId? string checkpoint: the user message it belongs to; session_before_fork: the message forked from
---@field files? string[] checkpoint: the files the run changed
---@field fileChoice? "restore"|"keep" session_before_fork: what the user chose in pi's own /fork dialog about the files (absent when it did not ask)
---@field pruned? integer checkpoint: older checkpoints removed to stay within the storage limits
---@field model? pi.Model model_select
---@field previousModel? pi.Model model_select
---@field level? pi.ThinkingLevel thinking_level_select
---@field previousLevel? pi.ThinkingLevel thinking_level_select
---@field command? string user_bash
---@field excludeFromContext? boolean user_bash
---@field limit? integer run_limit: the limit in force
---@field turns? integer run_limit: model replies so far in the run
---@field requests? integer run_limit: model requests so far (retries included)
---@field error? string run_limit (repeated_tool_failure): the call's error text
---@field times? integer run_limit (repeated_tool_failure): turns in a row it failed

---@class pi.HandlerResult
---@field block? boolean tool_call: refuse the call
---@field reason? string tool_call, permission: why (the model sees it)
---@field decision? "allow"|"ask"|"deny" permission: run, ask the user, or refuse
---@field content? pi.Content[] tool_result patch
---@field details? any tool_result patch
---@field isError? boolean tool_result patch
---@field systemPrompt? string before_agent_start
---@field message? pi.CustomMessage before_agent_start: inject a message
---@field messages? pi.Message[] context: the messages to send
---@field action? "continue"|"transform"|"handled" input
---@field text? string input with action "transform"
---@field cancel? boolean session_before_*: cancel the operation
---@field result? {output: string, exitCode: integer} user_bash: replace running the command
---@field skillPaths? string[] resources_discover
---@field promptPaths? string[] resources_discover
---@field themePaths? string[] resources_discover
---@field continue? boolean run_limit: go on (a repeated call's count starts again; a turn or request limit grows by its setting)
---@field stop? boolean run_limit: stop now, without asking the user
---@field maxTurns? integer run_limit: go on with this turn limit
---@field maxRequests? integer run_limit: go on with this request limit

---@alias pi.Handler fun(event: pi.Event, ctx: pi.Context): pi.HandlerResult|table|nil

---@class pi.Signal
---@field aborted boolean whether the operation was aborted

---@class pi.ToolResult
---@field content string|pi.Content[]
---@field details? any persisted with the result; read it back from getBranch()
---@field terminate? boolean end the run after this batch of tool calls without another model call (only when every result of the batch sets it)

---@class pi.WrappedResult : pi.ToolResult what `next(args)` returns to a `pi.wrapTool` wrapper
---@field isError? boolean the tool failed; `content` holds its message

---@class pi.ToolRendererDecorator
---@field renderCall? fun(args: table, theme: pi.Theme, context: pi.ToolRenderContext, inner: fun(): pi.Component|nil): pi.Component|nil
---@field renderResult? fun(result: pi.ToolResult, options: {expanded: boolean, isPartial: boolean}, theme: pi.Theme, context: pi.ToolRenderContext, inner: fun(): pi.Component|nil): pi.Component|nil

---@alias pi.ToolWrapper fun(args: table, next: fun(args: table): pi.WrappedResult, ctx: pi.Context): pi.WrappedResult|{block: true, reason?: string}

---@class pi.ToolDefinition
---@field name string name the model uses (a built-in of the same name is replaced)
---@field label? string
---@field description string
---@field parameters? table JSON Schema of the arguments (checked at registration)
---@field promptSnippet? string one line in the system prompt's tool list
---@field promptGuidelines? string[] bullets added to the system prompt guidelines
---@field executionMode? "sequential"|"parallel"
---@field prepareArguments? fun(args: table): table reshape raw arguments before validation
---@field execute fun(toolCallId: string, params: table, signal: pi.Signal, onUpdate: fun(partial: pi.ToolResult), ctx: pi.Context): pi.ToolResult fail with error(...)
---@field renderCall? fun(args: table, theme: pi.Theme, context: pi.ToolRenderContext): pi.Component|nil nil: built-in title
---@field renderResult? fun(result: pi.ToolResult, options: {expanded: boolean, isPartial: boolean}, theme: pi.Theme, context: pi.ToolRenderContext): pi.Component|nil nil: built-in output
---@field renderShell? "default"|"self" "self": no tool background or padding

---@class pi.FileOperations operations of pi.createReadTool/createWriteTool/createEditTool; a missing one is done locally
---@field readFile? fun(absolutePath: string): string the file's bytes (read, edit)
---@field access? fun(absolutePath: string) raise with error(...) when the file cannot be used (read: readable; edit: readable and writable)
---@field detectImageMimeType? fun(absolutePath: string): string|nil "image/png" etc., nil for text (read; default: sniff the bytes)
---@field writeFile? fun(absolutePath: string, content: string) (write, edit)
---@field mkdir? fun(dir: string) create a folder and its parents (write)

---@class pi.FileToolOptions
---@field operations? pi.FileOperations

---@class pi.BashExecOptions
---@field onData fun(data: string) hand output (stdout and stderr, in arrival order) to the tool
---@field signal pi.Signal fires on abort
---@field timeout? number seconds, when the model gave one
---@field env? table<string, string> the whole environment, when a spawnHook produced one

---@class pi.BashOperations
---@field exec fun(command: string, cwd: string, options: pi.BashExecOptions): {exitCode: integer|nil} error("aborted") or error("timeout:<s>") when stopped; nil exitCode when killed

---@class pi.BashSpawnContext
---@field command string
---@field cwd string
---@field env table<string, string>

---@class pi.BashToolOptions
---@field operations? pi.BashOperations run commands elsewhere (default: the local shell)
---@field spawnHook? fun(spawn: pi.BashSpawnContext): pi.BashSpawnContext|nil adjust command, cwd or env before each run (nil: keep the changed table)
---@field commandPrefix? string put on its own line before every command
---@field shellPath? string local shell to use instead of bash

---@class pi.CommandOptions
---@field description? string
---@field handler fun(args: string, ctx: pi.CommandContext)
---@field getArgumentCompletions? fun(prefix: string): ({value: string, label?: string, description?: string}|string)[]

---@class pi.ShortcutOptions
---@field description? string
---@field handler fun(ctx: pi.Context)

---@class pi.FlagOptions
---@field description? string
---@field type? "boolean"|"string" default "boolean"
---@field default? boolean|string

---@class pi.CustomMessage
---@field customType string
---@field content string|pi.Content[]
---@field display? boolean default true
---@field details? any

---@class pi.SendOptions
---@field deliverAs? "steer"|"followUp"|"nextTurn"
---@field triggerTurn? boolean start a turn when the agent is idle

---@class pi.TruncationOptions
---@field maxLines? integer default 2000
---@field maxBytes? integer default 51200

---@class pi.TruncationResult
---@field content string
---@field truncated boolean
---@field truncatedBy "lines"|"bytes"|nil
---@field totalLines integer
---@field totalBytes integer
---@field outputLines integer
---@field outputBytes integer

---@class pi.CommandInfo
---@field name string
---@field description? string
---@field source "extension"|"prompt"|"skill"
---@field sourceInfo {path: string, source: string, scope: string, origin: string}

---@class pi.ToolInfo
---@field name string
---@field description string
---@field parameters table

---@class pi.Entry
---@field type string
---@field id string
---@field parentId string|nil
---@field timestamp string
---@field message? pi.Message
---@field customType? string
---@field data? any

---@class pi.TreeNode
---@field entry pi.Entry
---@field children pi.TreeNode[]
---@field label? string

---@class pi.SessionManager
---@field getEntries fun(): pi.Entry[]
---@field getBranch fun(fromId?: string): pi.Entry[] root to leaf (or to fromId)
---@field getLeafId fun(): string|nil
---@field getEntry fun(id: string): pi.Entry|nil
---@field getLabel fun(id: string): string|nil
---@field getSessionFile fun(): string|nil nil for --no-session
---@field getSessionName fun(): string|nil
---@field getHeader fun(): table
---@field getTree fun(): pi.TreeNode[]

---@class pi.ModelRegistry
---@field find fun(provider: string, id: string): pi.Model|nil
---@field getAll fun(): pi.Model[]
---@field getAvailable fun(): pi.Model[]

---@class pi.DialogOptions
---@field timeout? integer milliseconds; the title counts down and the default is returned when it runs out
---@field signal? pi.Signal a tool's abort signal; the dialog closes with the default when it fires

---@class pi.WidgetOptions
---@field placement? "aboveEditor"|"belowEditor" default "aboveEditor"

---@class pi.WorkingIndicator
---@field frames? string[] spinner frames (an empty list hides the spinner)
---@field intervalMs? integer milliseconds per frame (default 80)

---@class pi.Theme
---@field name string for ctx.ui.theme, the theme in use right now
---@field fg fun(token: string, text: string): string text in a theme colour (ANSI); unknown tokens are an error
---@field bg fun(token: string, text: string): string text on a theme background colour
---@field bold fun(text: string): string
---@field dim fun(text: string): string
---@field italic fun(text: string): string
---@field underline fun(text: string): string
---@field inverse fun(text: string): string
---@field strikethrough fun(text: string): string

---@class pi.SetThemeResult
---@field success boolean
---@field error? string why the theme was refused

---@class pi.AutocompleteItem
---@field value string inserted in place of the prefix
---@field label? string shown in the list (default: value)
---@field description? string

---@class pi.AutocompleteSuggestions
---@field prefix string the text before the cursor that a chosen item replaces
---@field items pi.AutocompleteItem[]

---@class pi.AutocompleteProvider
---@field getSuggestions fun(lines: string[], line: integer, col: integer, options: table): pi.AutocompleteSuggestions|nil `lines[line]` is the cursor's line, `col` the bytes before the cursor; may yield (pi.exec); nil lets the provider below answer
---@field applyCompletion? fun(lines: string[], line: integer, col: integer, item: pi.AutocompleteItem, prefix: string): any
---@field shouldTriggerFileCompletion? fun(lines: string[], line: integer, col: integer): boolean

---@class pi.UI
---@field onTerminalInput fun(handler: fun(key: string): {consume?: boolean, data?: string}|nil): fun() see every key first (as a key id: "a", "up", "ctrl+x"); `{consume = true}` swallows it, `{data = "..."}` hands on another key id or text; returns the function that removes the handler
---@field addAutocompleteProvider fun(factory: fun(current: pi.AutocompleteProvider): pi.AutocompleteProvider) stack a completion provider over the editor's own (`/` commands, `@` paths)
---@field notify fun(message: string, level?: "info"|"success"|"warning"|"error") shown in the transcript
---@field confirm fun(title: string, message: string, opts?: pi.DialogOptions): boolean yields; false on cancel, timeout or without a UI
---@field select fun(title: string, options: string[], opts?: pi.DialogOptions): string|nil yields; nil on cancel, timeout or without a UI
---@field input fun(title: string, placeholder?: string, opts?: pi.DialogOptions): string|nil yields; nil on cancel, timeout or without a UI
---@field editor fun(title: string, text?: string, opts?: pi.DialogOptions): string|nil yields; nil on cancel, timeout or without a UI
---@field setStatus fun(key: string, text: string|nil) footer status slot (nil clears it)
---@field setWidget fun(key: string, content: string[]|fun(tui: pi.Tui, theme: pi.Theme): pi.Component|nil, options?: pi.WidgetOptions)
---@field setTitle fun(title: string) terminal window title
---@field setEditorText fun(text: string) replace the editor's text
---@field pasteToEditor fun(text: string) paste at the cursor
---@field getEditorText fun(): string "" without a UI
---@field setWorkingMessage fun(text?: string) replaces "Working..." (nil restores it)
---@field setWorkingIndicator fun(opts?: pi.WorkingIndicator) custom spinner (no argument restores it)
---@field setWorkingVisible fun(visible: boolean) hide (false) or show the working line while a turn runs
---@field setHiddenThinkingLabel fun(label?: string) shown for a collapsed thinking block (nil restores "Thinking...")
---@field setToolsExpanded fun(expanded: boolean)
---@field getToolsExpanded fun(): boolean false without a UI
---@field setTheme fun(theme: string|table): pi.SetThemeResult a theme name or a theme table (see docs/themes.md)
---@field getTheme fun(name: string): pi.Theme|nil
---@field getAllThemes fun(): {name: string, path?: string}[]
---@field theme pi.Theme the current theme
---@field setFooter fun(factory: (fun(tui: pi.Tui, theme: pi.Theme): pi.Component)|nil) no-op without a UI
---@field setHeader fun(factory: (fun(tui: pi.Tui, theme: pi.Theme): pi.Component)|nil) no-op without a UI
---@field setEditorComponent fun(factory: (fun(tui: pi.Tui, theme: pi.Theme, keybindings: pi.Keybindings): pi.Component)|nil) handleInput returns true (used), false/nil (editor gets the key) or key ids for the editor
---@field getEditorComponent fun(): (fun(tui: pi.Tui, theme: pi.Theme, keybindings: pi.Keybindings): pi.Component)|nil the factory last given to setEditorComponent, to wrap it
---@field custom fun(factory: pi.ComponentFactory, options?: pi.CustomOptions): any waits for done(value); nil without a UI

---@class pi.Context
---@field cwd string
---@field model pi.Model
---@field hasUI boolean false in print and JSON modes
---@field signal? pi.Signal tools: aborts with the run
---@field ui pi.UI
---@field sessionManager pi.SessionManager
---@field checkpoints pi.Checkpoints the session's file checkpoints (docs/checkpoints.md)
---@field modelRegistry pi.ModelRegistry
---@field isIdle fun(): boolean
---@field abort fun() abort the running turn
---@field hasPendingMessages fun(): boolean
---@field shutdown fun() quit pi once idle
---@field getContextUsage fun(): {tokens: integer, contextWindow: integer, percent: number}|nil nil for an empty conversation
---@field compact fun(options?: {customInstructions?: string, onComplete?: fun(result: {summary: string, firstKeptEntryId: string, tokensBefore: integer, details?: table}), onError?: fun(err: {message: string})}) compact once the current turn is over; `onComplete`/`onError` tell how it went
---@field getSystemPrompt fun(): string
---@field sendUserMessage fun(content: string|pi.Content[], options?: pi.SendOptions) like pi.sendUserMessage
---@field permissions pi.Permissions the effective permission mode and rules

---@class pi.Checkpoint
---@field id string
---@field entryId string|nil the user message whose run it belongs to (nil for a `!` command run before any)
---@field kind "prompt"|"bash" a prompt's run or one of the user's `!` commands
---@field timestamp integer when it was made (ms since the epoch)
---@field files string[] the files that run changed (relative to the working folder)
---@field bytes integer storage its new chunks took

---@class pi.CheckpointRestoreResult
---@field restored string[]|nil files put back (nil when `code` was false)
---@field kept string[]|nil conflicting files left as they are

---@class pi.Checkpoints
---@field list fun(): pi.Checkpoint[] newest first
---@field restore fun(id: string, options?: {code?: boolean, conversation?: boolean, overwrite?: boolean|string[]}): pi.CheckpointRestoreResult bring the workspace back to its state before that checkpoint's run (`code`, default true) and/or move the conversation to before its message (`conversation`, default false, once the handler returns); files changed since by someone else are kept unless `overwrite` is true or lists them

---@class pi.Permissions
---@field active boolean whether the user opted in to the policy (a rule, a sandbox mode, --yolo)
---@field yolo boolean prompts are off (the danger floor still asks)
---@field mode string "full" or "sandboxed"
---@field projectTrusted boolean whether the project's rules may loosen too
---@field rules {tool: string, pattern: string, action: "allow"|"ask"|"deny", scope: "user"|"project"|"session"}[] in the order they apply (the last match wins)

---@class pi.CommandContext: pi.Context
---@field waitForIdle fun()
---@field newSession fun(options?: {parentSession?: string, withSession?: fun(ctx: pi.CommandContext)}): {cancelled: boolean} start a new session once the command returns; `withSession` then runs with the new session's ctx
---@field reload fun() reload every extension once the command returns
---@field fork fun(entryId: string, options?: table): {cancelled: boolean} fork before a user message once the command returns
---@field navigateTree fun(targetId: string, options?: {summarize?: boolean, customInstructions?: string, replaceInstructions?: boolean, label?: string}): {cancelled: boolean} move within the session tree once the command returns (a user message target puts its text back in the editor)
---@field switchSession fun(sessionPath: string, options?: table): {cancelled: boolean} switch once the command returns

---@class pi.Events
---@field on fun(channel: string, handler: fun(data: any, reply: fun(value: any)))
---@field emit fun(channel: string, data?: any, onReply?: fun(value: any)): integer number of handlers

---@class pi.Json
---@field encode fun(value: any): string
---@field decode fun(text: string): any
---@field null userdata JSON null

---YAML with the parser pi uses for skills. Decoders return the value, or nil and a
---message naming the line and column. `null` becomes nil; mappings remember key order.
---@class pi.Yaml
---@field decode fun(text: string): any, string|nil value, or nil and "YAML: line L, column C: ..."
---@field encode fun(value: any): string
---@field frontmatter fun(text: string): table|nil, string the `---` block's fields and the body after it, or nil and why
---@field keys fun(map: table): string[] a decoded mapping's keys in the file's order (other tables: sorted)

---TOML (comments allowed, so people can annotate data they write by hand).
---@class pi.Toml
---@field decode fun(text: string): table|nil, string|nil value, or nil and "TOML: line L, column C: ..."
---@field encode fun(value: table): string|nil, string|nil text, or nil and why

---A compiled regular expression (look-around and back-references supported).
---@class pi.Regex
---@field source string the pattern
---@field test fun(text: string): boolean
---@field find fun(text: string): integer|nil, integer|nil, string|nil 1-based start and end (bytes) and the match
---@field captures fun(text: string): table<integer|string, string>|nil groups by number (0 = whole match) and name

---@class pi.RegexLib
---@field new fun(pattern: string, opts?: {ignoreCase?: boolean}): pi.Regex|nil, string|nil the regex, or nil and why the pattern is bad
---@field test fun(pattern: string, text: string): boolean errors on a bad pattern

---@class pi.Log
---@field debug fun(...) only with PI_DEBUG set
---@field info fun(...)
---@field warn fun(...)
---@field error fun(...)

---@class pi.Fs
---@field read fun(path: string): string|nil, string|nil contents, or nil and why
---@field write fun(path: string, content: string) creates parent folders
---@field exists fun(path: string): boolean
---@field glob fun(pattern: string): string[] relative paths, .gitignore respected
---@field list fun(path: string): {name: string, isDir: boolean}[]|nil, string|nil entries sorted by name, or nil and why

---@class pi.HealthReporter what a health check reports, one finding per call
---@field ok fun(message: string)
---@field warn fun(message: string)
---@field error fun(message: string) an error makes `pi doctor` exit with 1

---@class pi.API
---@field on fun(event: pi.EventName, handler: pi.Handler)
---@field registerTool fun(definition: pi.ToolDefinition)
---@field wrapTool fun(name: string, wrapper: pi.ToolWrapper) wrap a built-in or registered tool; wrappers chain in load order or settings "tools.wrapOrder"
---@field wrapToolRenderer fun(name: string, decorator: pi.ToolRendererDecorator) decorate a tool's row; `inner()` is the next decorator's or the tool's own component (nil: built-in row)
---@field createReadTool fun(cwdOrOptions?: string|pi.FileToolOptions, options?: pi.FileToolOptions): pi.ToolDefinition pi's read tool with custom operations; cwd defaults to the session's
---@field createWriteTool fun(cwdOrOptions?: string|pi.FileToolOptions, options?: pi.FileToolOptions): pi.ToolDefinition
---@field createEditTool fun(cwdOrOptions?: string|pi.FileToolOptions, options?: pi.FileToolOptions): pi.ToolDefinition
---@field createBashTool fun(cwdOrOptions?: string|pi.BashToolOptions, options?: pi.BashToolOptions): pi.ToolDefinition
---@field registerCommand fun(name: string, options: pi.CommandOptions) duplicates get ":1", ":2"
---@field registerShortcut fun(shortcut: string, options: pi.ShortcutOptions)
---@field registerHealthCheck fun(check: fun(h: pi.HealthReporter)) a check `pi doctor` runs after loading the extension
---@field registerFlag fun(name: string, options?: pi.FlagOptions)
---@field getFlag fun(name: string): boolean|string|nil
---@field registerMessageRenderer fun(customType: string, renderer: fun(message: pi.CustomMessage, options: {expanded: boolean}, theme: pi.Theme): pi.Component|nil)
---@field ui pi.UiModule same table as require("pi.ui")
---@field setInterval fun(fn: fun(), ms: integer): integer runs on the extension thread
---@field setTimeout fun(fn: fun(), ms: integer): integer
---@field clearInterval fun(id: integer)
---@field clearTimeout fun(id: integer)
---@field registerProvider fun(name: string, config: pi.ProviderConfig)
---@field unregisterProvider fun(name: string)
---@field sendMessage fun(message: pi.CustomMessage, options?: pi.SendOptions)
---@field sendUserMessage fun(content: string|pi.Content[], options?: {deliverAs?: "steer"|"followUp"})
---@field appendEntry fun(customType: string, data?: any)
---@field setSessionName fun(name: string)
---@field getSessionName fun(): string|nil
---@field setLabel fun(entryId: string, label: string|nil)
---@field getActiveTools fun(): string[]
---@field getAllTools fun(): pi.ToolInfo[]
---@field setActiveTools fun(names: string[])
---@field setSandbox fun(mode: "read-only"|"workspace-write"|"full"): boolean, string|nil switch the sandbox for the session; false and the reason when the system cannot enforce the mode
---@field getSandbox fun(): {mode: string, writableRoots: string[], network: boolean, yolo: boolean}
---@field setModel fun(model: pi.Model): boolean false for an unknown model
---@field getThinkingLevel fun(): pi.ThinkingLevel
---@field setThinkingLevel fun(level: pi.ThinkingLevel)
---@field getCommands fun(): pi.CommandInfo[]
---@field exec fun(command: string, args?: string[], options?: pi.ExecOptions): pi.ExecResult
---@field spawn fun(command: string, args?: string[], options?: pi.SpawnOptions): pi.Process start a program in the background; killed on /reload and quit
---@field http pi.Http HTTP on pi's own client (its connection pool and TLS roots)
---@field promise fun(): pi.Promise a value one handler awaits and another (a callback, a timer) delivers
---@field execPath string path of the running pi program (for sub-agents)
---@field sleep fun(ms: integer)
---@field truncateHead fun(text: string, options?: pi.TruncationOptions): pi.TruncationResult
---@field truncateTail fun(text: string, options?: pi.TruncationOptions): pi.TruncationResult
---@field events pi.Events
---@field json pi.Json
---@field yaml pi.Yaml
---@field toml pi.Toml
---@field regex pi.RegexLib
---@field extensionDir string folder of this extension's entry file (for data files shipped beside it)
---@field agentDir string pi's agent folder (~/.pi/agent or PI_CODING_AGENT_DIR)
---@field log pi.Log
---@field fs pi.Fs
---@field i18n pi.I18nApi translations: see docs/extensions.md, "Localising an extension"
---@field state table JSON-able data kept across /reload

---An extension file returns its factory:
---```lua
------@param pi pi.API
---return function(pi) ... end
---```
---@alias pi.Factory fun(pi: pi.API)

---Or it returns a spec, to be set up lazily: `setup` runs on the first use of one of the
---`activate` triggers (at once when there is none). Unknown keys are ignored.
---```lua
---return { setup = function(pi) ... end, activate = { commands = { "deploy" } } }
---```
---@class pi.ExtensionSpec
---@field setup fun(pi: pi.API) registers everything, as a factory does
---@field activate? pi.Activate when to set it up; listed commands and tools are shown before that
---@field capabilities? pi.Capabilities what it may touch (docs/extension-security.md); without it, everything

---@class pi.Activate
---@field commands? (string|{name: string, description?: string})[] slash commands (listed in autocomplete and /help before the extension loads)
---@field tools? {name: string, description: string, parameters: table, label?: string}[] tools with their schemas (sent to the model before the extension loads)
---@field events? pi.EventName[] events whose first dispatch sets it up
---@field flags? string[] command-line flags (without `--`) that set it up at start
---@field fileTypes? string[] file extensions ("csv" or ".csv") whose first `read` sets it up

---What an extension may touch; each undeclared use is a Lua error. Write it as a literal
---table of strings: pi reads it from the file's text before the file runs.
---@class pi.Capabilities
---@field fs? pi.FsCapabilities files it may read and write
---@field exec? string[] programs: names looked up on PATH ("git"), paths, "$pi" (pi itself) or "*"
---@field net? string[] hosts for pi.http.request: "api.github.com", "*.example.org", "localhost:8080" or "*"
---@field env? string[] variables for os.getenv: "HOME", prefixes "PI_*", or "*"

---Path scopes: relative = under the workspace; "$agent/…", "$extension/…", "$tmp/…", "~/…"
---or absolute; a glob ("src/**/*.rs") covers its matches and what is below them.
---@class pi.FsCapabilities
---@field read? string[] scopes it may read (what it may write it may read too)
---@field write? string[] scopes it may write, create, rename and remove files in

---The translation API: `pi.i18n`, and what `pi-i18n/requestApi` replies with.
---@class pi.I18nApi
---@field getLocale fun(): string the current locale, e.g. "zh-TW"
---@field setLocale fun(locale: string) switch the whole UI; errors on a malformed tag
---@field t fun(key: string, params?: pi.I18nParams): string the key itself when unknown
---@field registerBundle fun(bundle: pi.I18nBundle): boolean, string[]|nil ok, or false and the reasons
---@field onLocaleChanged fun(listener: fun(locale: string)): fun() returns an unsubscribe function
