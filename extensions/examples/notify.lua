-- Sends a desktop notification when the agent is done and waiting for you:
-- OSC 777 (Ghostty, iTerm2, WezTerm, rxvt-unicode), OSC 99 (Kitty) or a
-- Windows toast (Windows Terminal under WSL).
--
--   pi -e extensions/examples/notify.lua
local function toast_script(title, body)
  local ns = "Windows.UI.Notifications"
  return table.concat({
    string.format("[%s.ToastNotificationManager, %s, ContentType = WindowsRuntime] > $null", ns, ns),
    string.format("$xml = [%s.ToastNotificationManager]::GetTemplateContent([%s.ToastTemplateType]::ToastText01)", ns, ns),
    string.format("$xml.GetElementsByTagName('text')[0].AppendChild($xml.CreateTextNode('%s')) > $null", body),
    string.format("[%s.ToastNotificationManager]::CreateToastNotifier('%s').Show([%s.ToastNotification]::new($xml))", ns, title, ns),
  }, "; ")
end

local function setup(pi)
  local function notify(title, body)
    if os.getenv("WT_SESSION") then
      pi.spawn("powershell.exe", { "-NoProfile", "-Command", toast_script(title, body) })
    elseif os.getenv("KITTY_WINDOW_ID") then
      io.stdout:write(string.format("\27]99;i=1:d=0;%s\27\\", title))
      io.stdout:write(string.format("\27]99;i=1:p=body;%s\27\\", body))
      io.stdout:flush()
    else
      io.stdout:write(string.format("\27]777;notify;%s;%s\7", title, body))
      io.stdout:flush()
    end
  end

  pi.on("agent_end", function()
    notify("Pi", "Ready for input")
  end)
end

-- What this extension may touch (docs/extension-security.md).
return {
  capabilities = { exec = { "powershell.exe" }, env = { "WT_SESSION", "KITTY_WINDOW_ID" } },
  setup = setup,
}
