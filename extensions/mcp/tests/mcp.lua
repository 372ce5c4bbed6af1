local t = pi.test

-- The tiny stdio server beside this file, configured in the test's own agent folder.
local here = debug.getinfo(1, "S").source:match("^@(.*)/") or "."

local function write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

local function read(path)
  local f = io.open(path, "r")
  if not f then
    return nil
  end
  local text = f:read("a")
  f:close()
  return text
end

local function starts()
  local text = read(t.agent_dir() .. "/starts.log") or ""
  local n = 0
  for _ in text:gmatch("started\n") do
    n = n + 1
  end
  return n
end

local function configure(extra)
  local entry = string.format(
    '{"command": "python3", "args": ["%s/tiny_server.py", "%s/starts.log"]%s}',
    here,
    t.agent_dir(),
    extra or ""
  )
  write(t.agent_dir() .. "/mcp.json", '{"mcpServers": {"tiny": ' .. entry .. "}}")
end

describe("mcp", function()
  it("starts a server only when the model first asks for it, then calls its tools", function()
    configure()
    t.start()
    expect(t.tools()).to_contain("mcp")
    expect(t.tools()).never.to_contain("tiny_add")
    expect(starts()).to_equal(0)
    t.model.tool("mcp", { server = "tiny" })
    t.model.tool("mcp", { server = "tiny", tool = "add", arguments = { a = 2, b = 40 } })
    t.model.reply("done")
    t.send("add 2 and 40")
    local calls = t.tool_calls()
    expect(calls[1].result).to_match("^MCP server tiny is connected and has 4 tools%.")
    expect(calls[1].result).to_contain("- add (tiny_add): Add a and b")
    expect(calls[2].result).to_equal("42")
    expect(calls[2].is_error).to_equal(false)
    expect(starts()).to_equal(1)
    -- The list is cached for the next sessions.
    expect(read(t.agent_dir() .. "/mcp-cache.json")).to_contain('"name":"add"')
  end)

  it("offers a cached server's tools by name without starting it", function()
    configure()
    t.start()
    t.model.tool("mcp", { server = "tiny" })
    t.model.reply("listed")
    t.send("list")
    t.send("/new")
    t.send("/reload")
    expect(t.tools()).to_contain("tiny_echo")
    expect(t.tools()).never.to_contain("mcp")
    local before = starts()
    t.model.tool("tiny_echo", { text = "hi there" })
    t.model.reply("done")
    t.send("echo")
    local calls = t.tool_calls()
    expect(calls[#calls].name).to_equal("tiny_echo")
    expect(calls[#calls].result).to_equal("hi there")
    expect(starts()).to_equal(before + 1)
  end)

  it("turns a crash into a tool error and starts the server again on the next call", function()
    configure()
    t.model.tool("mcp", { server = "tiny", tool = "crash" })
    t.model.tool("mcp", { server = "tiny", tool = "echo", arguments = { text = "back" } })
    t.model.reply("done")
    t.send("go")
    local calls = t.tool_calls()
    expect(calls[1].is_error).to_equal(true)
    expect(calls[1].result).to_contain("MCP server tiny stopped during the call (exited with code 3)")
    expect(calls[1].result).to_contain("tiny: crashing on purpose")
    expect(calls[2].result).to_equal("back")
    expect(starts()).to_equal(2)
  end)

  it("gives up on a call after the timeout", function()
    configure(', "timeout": 500')
    t.model.tool("mcp", { server = "tiny", tool = "hang" })
    t.model.reply("done")
    t.send("go")
    local call = t.tool_calls()[1]
    expect(call.is_error).to_equal(true)
    expect(call.result).to_equal(
      "MCP server tiny did not answer tools/call within 500 ms; it will be restarted on the next call."
    )
  end)

  it("lists servers with /mcp and refuses a disabled one", function()
    configure()
    t.send("/mcp")
    expect(t.ui_calls("notify")[1].message).to_equal("MCP servers: 1\ntiny (stdio): not started, tools not listed yet")
    t.send("/mcp disable tiny")
    expect(t.ui_calls("notify")[2].message).to_equal("MCP server tiny disabled for this session")
    t.model.tool("mcp", { server = "tiny" })
    t.model.reply("done")
    t.send("go")
    expect(t.tool_calls()[1].result).to_equal("MCP server tiny is disabled (/mcp enable tiny turns it back on).")
    expect(starts()).to_equal(0)
    t.send("/mcp enable tiny")
    expect(t.ui_calls("notify")[3].message).to_equal("MCP server tiny connected: 4 tools")
    expect(starts()).to_equal(1)
  end)

  it("skips the servers of an untrusted project", function()
    os.execute("mkdir -p '" .. t.cwd() .. "/.pi'")
    write(t.cwd() .. "/.pi/mcp.json", '{"mcpServers": {"proj": {"command": "true"}}}')
    configure()
    t.start()
    expect(t.ui_calls("notify")[1].message).to_equal(
      "MCP servers of this project were skipped because the folder is not trusted: proj"
    )
    t.send("/mcp")
    expect(t.ui_calls("notify")[2].message).to_match("^MCP servers: 1\ntiny ")
  end)
end)
