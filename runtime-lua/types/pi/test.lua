---@meta
-- LuaLS annotations for test files run by `pi test` (`*_test.lua`, `tests/*.lua`), see
-- docs/testing.md. In a test file the global `pi` holds only `pi.test`.

---Checks on one value; a failing check stops the test and reports its line.
---@class pi.Expectation
---@field never pi.Expectation the same checks, negated
---@field to_equal fun(expected: any) deep equality; failures show a diff
---@field to_be fun(expected: any) the very same value (rawequal)
---@field to_be_truthy fun() neither nil nor false
---@field to_match fun(pattern: string) a string matching the Lua pattern
---@field to_contain fun(item: any) a string containing the text, or a table with an element matching `item`
---@field to_have_shape fun(shape: table) keys with these types ("string", "number"...), nested shapes or values
---@field to_error fun(pattern?: string) the function raises an error (matching `pattern`)

---@param value any
---@return pi.Expectation
function expect(value) end

---A group of tests; its name prefixes theirs.
---@param name string
---@param body fun()
function describe(name, body) end

---A test: it gets a fresh session, model script and working folder.
---@param name string
---@param body fun()
function it(name, body) end

---Runs before every test of the enclosing group.
---@param fn fun()
function before_each(fn) end

---Runs after every test of the enclosing group, even a failed one.
---@param fn fun()
function after_each(fn) end

---A reply of the scripted model.
---@class pi.TestReply
---@field text? string
---@field tools? { name: string, args?: table }[]

---A request the scripted model received.
---@class pi.TestRequest
---@field system_prompt string
---@field messages { role: string, text: string }[]
---@field tools string[] names of the tools offered

---The scripted model: each request takes the next queued reply.
---@class pi.TestModel
---@field reply fun(reply: string|pi.TestReply) queue a text reply, or text and tool calls
---@field tool fun(name: string, args?: table) queue a reply calling one tool
---@field error fun(message: string) queue a failed request
---@field delay fun(ms: integer) the next queued reply waits this long
---@field requests fun(): pi.TestRequest[] every request so far

---Answers of dialogs still to come, in order.
---@class pi.TestAnswers
---@field confirm fun(yes: boolean)
---@field select fun(option: string)
---@field input fun(text: string)
---@field editor fun(text: string)
---@field cancel fun() dismiss the next dialog of any kind

---A tool call of the session with its result.
---@class pi.TestToolCall
---@field name string
---@field args table
---@field result? string the result's text
---@field is_error? boolean
---@field details? any
---@field at? string where an extension tool's `execute` is written (file:line)

---A `ctx.ui` request as recorded: its fields as in RPC mode, `answer` for a dialog,
---`at` the extension's file and line.
---@class pi.TestUiCall
---@field method string
---@field at? string
---@field answer? table
---@field [string] any

---The session of the running test and the simulated user.
---@class pi.Test
---@field model pi.TestModel
---@field answer pi.TestAnswers
---@field load fun(...: string) the extensions to load (relative to the test file)
---@field start fun() start the session now (the extension sees session_start)
---@field send fun(text: string) a prompt, `/command args`, `/reload`, `/new` or `/quit`; waits until done
---@field press fun(key: string) an extension shortcut, else a key for the screen
---@field cwd fun(): string the session's working folder
---@field agent_dir fun(): string the agent folder the extension sees as `pi.agentDir` (empty, private to the test)
---@field tool_calls fun(): pi.TestToolCall[]
---@field messages fun(): table[] the conversation's messages (each with `role` and `text`)
---@field ui_calls fun(method?: string): pi.TestUiCall[]
---@field entries fun(kind?: string): table[] session entries of a type or customType
---@field commands fun(): { name: string, description?: string }[]
---@field tools fun(): string[] names of the active tools
---@field screen fun(width?: integer, height?: integer): string the terminal UI as text
---@field snapshot fun(name: string, width?: integer, height?: integer) compare with the stored screen

---@class pi.TestGlobal
---@field test pi.Test

---@type pi.TestGlobal
pi = {}
