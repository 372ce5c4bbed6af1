---@meta
-- LuaLS annotations for programs and requests an extension starts (`pi.exec`, `pi.spawn`,
-- `pi.http`, `pi.promise`), see docs/extensions.md.

---@class pi.ExecOptions
---@field timeout? integer milliseconds
---@field signal? pi.Signal
---@field cwd? string relative to the working directory

---@class pi.ExecResult
---@field stdout string
---@field stderr string
---@field code integer|nil
---@field killed boolean

---@class pi.SpawnOptions
---@field cwd? string relative to the working directory
---@field env? table<string, string|false> added to pi's environment; false removes a variable
---@field stdin? string|boolean a string is written to the program, then its input is closed; true keeps the input open for proc.write (default: no input)
---@field mode? "lines"|"raw" "lines" (default) hands over each line without its line end; "raw" the bytes as they arrive, in chunks of up to 64 KiB
---@field signal? pi.Signal kills the program when it fires
---@field onStdout? fun(line: string) each output line (a chunk in raw mode)
---@field onStderr? fun(line: string) each error-output line (a chunk in raw mode)
---@field onExit? fun(code: integer|nil, killed: boolean) after the last line; code is nil when killed

---@class pi.SpawnResult
---@field code integer|nil nil when killed
---@field stdout string up to 4 MB
---@field stderr string up to 4 MB
---@field killed boolean

---@class pi.Process
---@field pid integer|nil
---@field kill fun() end the program and its process group (no-op once it ended)
---@field running fun(): boolean
---@field wait fun(): pi.SpawnResult yields until the program ended
---@field write fun(data: string): boolean queue bytes for the program's input (spawned with stdin = true); false once the input is closed
---@field closeStdin fun() close the program's input (it reads end of file)

---@class pi.HttpRequest
---@field url string
---@field method? string default "GET"
---@field headers? table<string, string>
---@field body? string
---@field timeout? integer milliseconds until the response headers (and, without stream, the whole body)
---@field signal? pi.Signal a tool's abort signal; a fired signal ends the request
---@field stream? boolean return once the headers arrived; read the body with read() or nextEvent()

---@class pi.HttpEvent
---@field event string the SSE event name ("message" when the server sent none)
---@field data string its data lines joined with "\n"

---@class pi.HttpResponse
---@field status integer
---@field ok boolean status 2xx
---@field url string the final URL (after redirects)
---@field headers table<string, string> lower-case names; repeated headers joined with ", "
---@field body? string the whole body (without stream)
---@field read fun(timeoutMs?: integer): string|nil, string|nil stream: the next chunk; nil at the end, or nil and an error
---@field nextEvent fun(timeoutMs?: integer): pi.HttpEvent|nil, string|nil stream: the next server-sent event; nil at the end, or nil and an error
---@field close fun() stream: stop reading and release the connection

---@class pi.Http
---@field request fun(request: pi.HttpRequest): pi.HttpResponse|nil, string|nil yields; nil and a message on a network error, a timeout or a fired signal (an HTTP error status is a response)

---@class pi.Promise
---@field resolve fun(value: any): boolean deliver the value (false when already settled)
---@field settled fun(): boolean
---@field await fun(timeoutMs?: integer, signal?: pi.Signal): any, "timeout"|"aborted"|nil yields until resolved; nil and why on a timeout or a fired signal
