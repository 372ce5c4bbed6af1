-- Core hack shipped with pi: Traditional Chinese wording for short English texts that
-- third-party extensions commonly show without calling t() (notifications, status lines,
-- widget lines, command descriptions, tool labels).
--
-- A core hack only returns data. Exact matches are tried first; patterns are a last resort
-- and must be anchored with ^ and $ so they can never rewrite more than the whole text.
-- Hacks change only what is displayed: the extension still sees its own text, and
-- switching to another locale shows the original again.
return {
  id = "zh-TW.common-extension-text",
  locales = { "zh-TW" },
  exact = {
    ["Ready"] = "就緒",
    ["Done"] = "完成",
    ["Done."] = "完成。",
    ["Saved"] = "已儲存",
    ["Cancelled"] = "已取消",
    ["Canceled"] = "已取消",
    ["Loading..."] = "載入中…",
    ["Working..."] = "處理中…",
    ["No changes"] = "沒有變更",
    ["Checkpoint saved"] = "已建立檢查點",
    ["Commit created"] = "已建立提交",
    ["Nothing to commit"] = "沒有可提交的內容",
    ["Permission denied"] = "權限遭拒",
    ["Blocked by the user"] = "已被使用者封鎖",
    ["Are you sure?"] = "確定嗎？",
    ["Continue?"] = "要繼續嗎？",
    ["Plan mode enabled"] = "已開啟規劃模式",
    ["Plan mode disabled"] = "已關閉規劃模式",
    ["No todos"] = "沒有待辦事項",
    ["Todo list cleared"] = "已清除待辦清單",
  },
  patterns = {
    { match = "^(\\d+) files? changed$", replace = "已變更 $1 個檔案" },
    { match = "^(\\d+) todos? left$", replace = "剩下 $1 個待辦事項" },
    { match = "^Saved to (\\S+)$", replace = "已儲存至 $1" },
  },
}
