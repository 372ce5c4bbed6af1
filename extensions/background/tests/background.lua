local t = pi.test

-- Whether process `pid` has ended, waiting up to two seconds.
local function gone(pid)
  for _ = 1, 40 do
    if not os.execute("kill -0 " .. pid .. " 2>/dev/null") then
      return true
    end
    os.execute("sleep 0.05")
  end
  return false
end

local JOB = "for i in 1 2 3; do echo line $i; done; echo ready; exec sleep 30"

describe("background", function()
  it("starts a job, waits for a line, reads the output and stops it", function()
    t.model.tool("bg_start", { command = JOB })
    t.model.tool("bg_wait", { id = "1", pattern = "^ready$", timeout = 10 })
    t.model.tool("bg_output", { id = "1", lines = 2 })
    t.model.tool("bg_stop", { id = "1" })
    t.model.tool("bg_wait", { id = "1", timeout = 10 })
    t.model.tool("bg_list", {})
    t.model.reply("done")
    t.send("run it")
    local calls = t.tool_calls()
    local pid = calls[1].result:match("^Started job 1 %(pid (%d+)%)%.$")
    expect(pid).to_be_truthy()
    expect(calls[2].result).to_match("^Matched: ready\n%[1%] running, 4 lines: ")
    expect(calls[3].result).to_equal("[1] running, 4 lines: " .. JOB .. "\nline 3\nready")
    expect(calls[4].result).to_equal("Stopped job 1.")
    expect(calls[5].result).to_match("^The job has ended%.\n%[1%] stopped, 4 lines")
    expect(calls[6].result).to_equal("[1] stopped, 4 lines: " .. JOB)
    expect(gone(pid)).to_equal(true)
  end)

  it("times out a wait without stopping the job, and names an unknown job", function()
    t.model.tool("bg_start", { command = "exec sleep 30" })
    t.model.tool("bg_wait", { id = "1", pattern = "never", timeout = 0.3 })
    t.model.tool("bg_output", { id = "7" })
    t.model.reply("done")
    t.send("go")
    local calls = t.tool_calls()
    expect(calls[2].result).to_match("^Timed out; the job keeps running%.\n%[1%] running, 0 lines")
    expect(calls[3].is_error).to_equal(true)
    expect(calls[3].result).to_equal("No background job 7")
  end)

  it("lists, shows and stops jobs with /jobs, and stops them all when the session ends", function()
    t.send("/jobs")
    expect(t.ui_calls("notify")[1].message).to_equal("No background jobs.")
    t.model.tool("bg_start", { command = JOB })
    t.model.tool("bg_start", { command = "echo second; exec sleep 30" })
    t.model.tool("bg_wait", { id = "1", pattern = "ready" })
    t.model.tool("bg_wait", { id = "2", pattern = "second" })
    t.model.reply("done")
    t.send("start two")
    local pids = {}
    for i = 1, 2 do
      pids[i] = t.tool_calls()[i].result:match("pid (%d+)")
    end
    t.send("/jobs")
    expect(t.ui_calls("notify")[2].message).to_equal(
      "Background jobs: 2\n[1] running, 4 lines: "
        .. JOB
        .. "\n  ready\n[2] running, 1 lines: echo second; exec sleep 30\n  second"
    )
    t.send("/jobs 1")
    expect(t.ui_calls("notify")[3].message).to_equal(
      "[1] running, 4 lines: " .. JOB .. "\nline 1\nline 2\nline 3\nready"
    )
    t.send("/jobs stop 1")
    expect(t.ui_calls("notify")[4].message).to_equal("Stopped job 1.")
    expect(gone(pids[1])).to_equal(true)
    expect(gone(pids[2])).to_equal(false)
    t.send("/quit")
    expect(gone(pids[2])).to_equal(true)
  end)
end)
