// One entry of the branch as DOM: messages with timestamps, tool calls joined
// to their results, folded long output, diffs, images, thinking and the
// per-turn tokens and cost; model switches and summaries as rows of their own.
var FOLD_LINES = 10;

function el(tag, cls, text) {
  var node = document.createElement(tag);
  if (cls) { node.className = cls; }
  if (text !== undefined && text !== null) { node.textContent = String(text); }
  return node;
}
function html(tag, cls, inner) { var n = el(tag, cls); n.innerHTML = inner; return n; }

function clock(ts) {
  var d = new Date(typeof ts === "number" ? ts : Date.parse(ts));
  return isNaN(d.getTime()) ? "" : d.toLocaleTimeString();
}
function images(node, content) {
  if (!Array.isArray(content)) { return; }
  content.forEach(function (b) {
    if (b && b.type === "image" && b.data) {
      var img = el("img");
      img.src = "data:" + (b.mimeType || "image/png") + ";base64," + b.data;
      img.alt = tr("image");
      img.loading = "lazy";
      node.appendChild(img);
    }
  });
}

/** `text` in a `<pre>`, folded to its first lines with "… (N more lines)" to open it. */
function folded(text, lang, cls) {
  var box = el("div", "fold" + (cls ? " " + cls : ""));
  var lines = String(text).replace(/\s+$/, "").split("\n");
  var pre = el("pre", "out");
  if (lines.length <= FOLD_LINES + 2) {
    pre.innerHTML = highlight(lines.join("\n"), lang);
    box.appendChild(pre);
    return box;
  }
  pre.innerHTML = highlight(lines.slice(0, FOLD_LINES).join("\n"), lang);
  box.appendChild(pre);
  var more = el("button", "more", tr("more_lines", { count: lines.length - FOLD_LINES }));
  more.type = "button";
  more.addEventListener("click", function () {
    pre.innerHTML = highlight(lines.join("\n"), lang);
    more.remove();
  });
  box.appendChild(more);
  return box;
}

function diffView(diff) {
  var box = el("pre", "diff");
  String(diff).split("\n").forEach(function (line) {
    var c = line.charAt(0);
    box.appendChild(el("div", c === "+" ? "add" : c === "-" ? "del" : "ctx", line));
  });
  return box;
}

function toolTitle(call) {
  var a = call.arguments || {};
  var t = el("div", "tool-title");
  t.appendChild(el("span", "tool-name", call.name === "bash" ? "$" : call.name));
  var arg = call.name === "bash" ? a.command : (a.path || a.file_path) ? shortPath(a.path || a.file_path) : null;
  if (call.name === "read" && arg && (a.offset || a.limit)) {
    arg += ":" + (a.offset || 1) + (a.limit ? "-" + ((a.offset || 1) + a.limit - 1) : "");
  }
  if (arg === null || arg === undefined) { arg = JSON.stringify(a); }
  t.appendChild(el("span", "tool-arg", arg));
  return t;
}

/** A tool call with its result (`result` may be missing: the call never finished). */
function toolCard(call, result) {
  var m = result ? result.message : null;
  var card = el("div", "tool " + (!m ? "pending" : m.isError ? "failed" : "ok"));
  card.appendChild(toolTitle(call));
  var body = el("div", "tool-body");
  var a = call.arguments || {};
  var lang = langOf(a.path || a.file_path);
  if (call.name === "write" && typeof a.content === "string") { body.appendChild(folded(a.content, lang, "args")); }
  if (m) {
    var out = textOf(m.content);
    if (m.details && m.details.diff && !m.isError) { body.appendChild(diffView(m.details.diff)); }
    else if (out && !(call.name === "write" && !m.isError)) {
      body.appendChild(folded(out, call.name === "read" && !m.isError ? lang : null, m.isError ? "error" : ""));
    } else if (out) { body.appendChild(el("div", "tool-note", oneLine(out))); }
    images(body, m.content);
    card.id = "entry-" + result.id;
  }
  card.appendChild(body);
  return card;
}

function meta(entry, m) {
  var row = el("div", "meta");
  row.appendChild(el("span", "time", clock(entry.timestamp || (m && m.timestamp))));
  if (m && m.role === "assistant" && m.usage) {
    var u = m.usage, parts = [];
    if (u.input) { parts.push("↑" + fmtTokens(u.input)); }
    if (u.output) { parts.push("↓" + fmtTokens(u.output)); }
    if (u.cacheRead) { parts.push("R" + fmtTokens(u.cacheRead)); }
    if (u.cacheWrite) { parts.push("W" + fmtTokens(u.cacheWrite)); }
    var cost = turnCost(u);
    var usage = el("span", "usage", parts.join(" ") + (cost ? "  $" + cost.toFixed(4) : ""));
    usage.title = tr("turn_usage");
    row.appendChild(usage);
  }
  var copy = el("button", "copy", tr("copy_md"));
  copy.type = "button";
  copy.title = tr("copy_md_title");
  copy.dataset.entryId = entry.id;
  row.appendChild(copy);
  return row;
}

function thinkingBlock(text) {
  var box = el("div", "thinking");
  var head = el("button", "thinking-head", tr("thinking_head"));
  head.type = "button";
  head.addEventListener("click", function () { box.classList.toggle("open"); });
  box.appendChild(head);
  box.appendChild(html("div", "thinking-body md", markdown(text)));
  return box;
}

/** Where `results` keeps the result of the call `callId` made in the entry `entryId`
 * (providers may reuse a call id in a later turn). */
function resultKey(entryId, callId) { return entryId + "\u0000" + callId; }

/** The DOM of `entry` (null for entries not shown); `results` maps [resultKey]s to result entries. */
function renderEntry(entry, results) {
  var m = entry.message || {};
  var node;
  switch (entry.type === "message" ? m.role : entry.type) {
    case "user":
      node = el("div", "msg user");
      node.appendChild(meta(entry, m));
      node.appendChild(html("div", "md", markdown(textOf(m.content))));
      images(node, m.content);
      return node;
    case "assistant":
      node = el("div", "msg assistant");
      node.appendChild(meta(entry, m));
      (m.content || []).forEach(function (b) {
        if (!b) { return; }
        if (b.type === "text" && b.text && b.text.trim()) { node.appendChild(html("div", "md", markdown(b.text))); }
        else if (b.type === "thinking" && b.thinking && b.thinking.trim()) { node.appendChild(thinkingBlock(b.thinking)); }
        else if (b.type === "toolCall") { node.appendChild(toolCard(b, results[resultKey(entry.id, b.id)])); }
      });
      if (m.errorMessage) { node.appendChild(el("div", "error", m.errorMessage)); }
      else if (m.stopReason === "aborted") { node.appendChild(el("div", "error", tr("aborted"))); }
      return node;
    case "toolResult":
      if (entry.joined) { return null; }
      node = el("div", "msg orphan");
      node.appendChild(meta(entry, null));
      node.appendChild(toolCard({ name: m.toolName, arguments: {} }, entry));
      return node;
    case "bashExecution":
      node = el("div", "msg user-bash");
      node.appendChild(meta(entry, null));
      node.appendChild(toolCard({ name: "bash", arguments: { command: m.command } },
        { id: entry.id, message: { content: m.output || "", isError: m.exitCode !== 0 } }));
      return node;
    case "custom": case "custom_message":
      if (entry.display === false) { return null; }
      node = el("div", "msg custom");
      node.appendChild(meta(entry, null));
      node.appendChild(el("div", "custom-type", "[" + (m.customType || entry.customType) + "]"));
      node.appendChild(html("div", "md", markdown(textOf(m.content || entry.content))));
      return node;
    case "compaction": case "compactionSummary": case "branch_summary": case "branchSummary":
      var compaction = /compaction/i.test(entry.type + m.role);
      node = el("div", "msg summary");
      node.appendChild(meta(entry, null));
      node.appendChild(el("div", "summary-head", compaction
        ? tr("compaction_head", { count: fmtTokens(entry.tokensBefore || m.tokensBefore || 0) })
        : tr("branch_summary_head")));
      node.appendChild(folded(entry.summary || m.summary || "", null, "summary-text"));
      return node;
    case "model_change":
      node = el("div", "msg setting");
      node.appendChild(el("span", "time", clock(entry.timestamp)));
      node.appendChild(el("span", null, tr("model_switch") + " "));
      node.appendChild(el("span", "model", entry.provider + "/" + entry.modelId));
      return node;
    case "thinking_level_change":
      node = el("div", "msg setting");
      node.appendChild(el("span", "time", clock(entry.timestamp)));
      node.appendChild(el("span", null, tr("thinking_level", { level: entry.thinkingLevel })));
      return node;
    default:
      return null;
  }
}

/** An entry as Markdown, for "copy as Markdown". */
function entryMarkdown(entry, results) {
  var m = entry.message || {};
  var out = [];
  if (m.role === "user") { out.push("**" + tr("role_user") + ":**\n\n" + textOf(m.content)); }
  else if (m.role === "assistant") {
    out.push("**" + tr("role_assistant") + ":**");
    (m.content || []).forEach(function (b) {
      if (b.type === "text") { out.push(b.text); }
      else if (b.type === "toolCall") {
        var r = results[resultKey(entry.id, b.id)];
        out.push("`" + b.name + "` " + callSummary(b) + (r ? "\n\n```\n" + textOf(r.message.content) + "\n```" : ""));
      }
    });
  } else { out.push(textOf(m.content || entry.content) || entry.summary || m.summary || ""); }
  return out.join("\n\n");
}
