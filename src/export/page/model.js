// The session as data: entries, the tree, labels, the branch shown, the
// tokens and cost of a turn and the rows of the sidebar with their filters.
var data, S, header, entries, byId, kids, roots, labels, leafId;

function tr(key, args) {
  var text = S[key] || key;
  if (args) {
    Object.keys(args).forEach(function (k) { text = text.split("{" + k + "}").join(String(args[k])); });
  }
  return text;
}
function time(e) { var t = Date.parse(e.timestamp); return isNaN(t) ? 0 : t; }

/** Take `d` as the session: its first screen first, then all of it. */
function load(d) {
  data = d;
  S = d.strings || {};
  header = d.header || {};
  entries = d.entries || [];
  byId = Object.create(null);
  kids = Object.create(null);
  roots = [];
  labels = Object.create(null);
  entries.forEach(function (e) { if (e.id) { byId[e.id] = e; } });
  entries.forEach(function (e) {
    if (e.type === "label") {
      if (e.label) { labels[e.targetId] = e.label; } else { delete labels[e.targetId]; }
    }
    var p = e.parentId;
    if (p && p !== e.id && byId[p]) { (kids[p] = kids[p] || []).push(e); } else { roots.push(e); }
  });
  Object.keys(kids).forEach(function (id) {
    if (kids[id].length > 1) { kids[id].sort(function (a, b) { return time(a) - time(b); }); }
  });
  leafId = d.leafId && byId[d.leafId] ? d.leafId : (entries.length ? entries[entries.length - 1].id : null);
}

/** Entries from the root to `id`. */
function pathTo(id) {
  var path = [];
  var seen = Object.create(null);
  while (id && byId[id] && !seen[id]) { seen[id] = true; path.push(byId[id]); id = byId[id].parentId; }
  return path.reverse();
}

/** The newest entry below `id` (itself when it has no children). */
function newestLeaf(id) {
  var best = byId[id];
  var stack = [best];
  while (stack.length) {
    var e = stack.pop();
    var k = kids[e.id];
    if (!k || !k.length) { if (time(e) >= time(best) || best === byId[id]) { best = e; } }
    else { for (var i = 0; i < k.length; i++) { stack.push(k[i]); } }
  }
  return best ? best.id : id;
}

function textOf(content) {
  if (typeof content === "string") { return content; }
  return (content || []).filter(function (b) { return b && b.type === "text"; })
    .map(function (b) { return b.text || ""; }).join("\n");
}
/** The beginning (up to `max` characters) of the text of `content`. */
function headText(content, max) {
  if (typeof content === "string") { return content.slice(0, max); }
  var out = "";
  for (var i = 0; content && i < content.length && out.length < max; i++) {
    var b = content[i];
    if (b && b.type === "text" && b.text) { out += (out ? "\n" : "") + b.text.slice(0, max); }
  }
  return out.slice(0, max);
}
function roleOf(e) { return e.type === "message" && e.message ? e.message.role : e.type; }

function turnCost(u) {
  var c = (u && u.cost) || {};
  return (c.input || 0) + (c.output || 0) + (c.cacheRead || 0) + (c.cacheWrite || 0);
}
function fmtTokens(n) {
  if (n < 1000) { return String(n); }
  if (n < 10000) { return (n / 1000).toFixed(1) + "k"; }
  if (n < 1000000) { return Math.round(n / 1000) + "k"; }
  return (n / 1000000).toFixed(1) + "M";
}

// ---- sidebar rows: depth-first, the branch holding the leaf first


function oneLine(text) {
  text = String(text || "");
  if (text.length > 400) { text = text.slice(0, 400); }
  return text.replace(/\s+/g, " ").trim();
}
function shortPath(p) {
  var home = (header.cwd || "").replace(/\/+$/, "");
  p = String(p || "");
  return home && p.indexOf(home + "/") === 0 ? p.slice(home.length + 1) : p;
}
function callSummary(call) {
  var a = call.arguments || {};
  if (call.name === "bash") { return oneLine(a.command); }
  if (a.path || a.file_path) { return shortPath(a.path || a.file_path); }
  if (a.pattern) { return oneLine(a.pattern); }
  return oneLine(JSON.stringify(a));
}
function findCall(result) {
  var e = byId[result.parentId];
  for (var hops = 0; e && hops < 4; hops++, e = byId[e.parentId]) {
    var m = e.message;
    if (m && m.role === "assistant") {
      var c = (m.content || []).filter(function (b) { return b && b.type === "toolCall" && b.id === result.message.toolCallId; });
      if (c.length) { return c[0]; }
    }
  }
  return null;
}

/** What a sidebar row says and which filters it passes. */
function describe(e) {
  var m = e.message || {};
  switch (roleOf(e)) {
    case "user": return { kind: "user", text: tr("tree.user", { text: oneLine(headText(m.content, 400)) }) };
    case "assistant": {
      var text = oneLine(headText(m.content, 400));
      var calls = (m.content || []).filter(function (b) { return b && b.type === "toolCall"; });
      var failed = m.stopReason && m.stopReason !== "stop" && m.stopReason !== "toolUse";
      if (calls.length) { text += (text ? " " : "") + "[" + calls.map(function (c) { return c.name; }).join(", ") + "]"; }
      if (!text && m.errorMessage) { text = tr("tree.error", { error: oneLine(m.errorMessage) }); }
      if (!text && failed) { text = "[" + m.stopReason + "]"; }
      return { kind: "assistant", text: tr("tree.assistant", { text: text }), quiet: !oneLine(headText(m.content, 400)) && !failed && !m.errorMessage };
    }
    case "toolResult": {
      var call = findCall(e);
      return { kind: "tool", text: "[" + m.toolName + (call ? ": " + callSummary(call) : "") + "]" };
    }
    case "bashExecution": return { kind: "user", text: "!" + oneLine(m.command) };
    case "custom": case "custom_message":
      return { kind: "custom", text: "[" + (m.customType || e.customType) + "] " + oneLine(headText(m.content || e.content, 400)) };
    case "compactionSummary": case "compaction":
      return { kind: "summary", text: tr("tree.compaction", { count: fmtTokens(e.tokensBefore || m.tokensBefore || 0) }) };
    case "branchSummary": case "branch_summary":
      return { kind: "summary", text: tr("tree.branch_summary", { text: oneLine(e.summary || m.summary) }) };
    case "model_change": return { kind: "setting", text: tr("tree.model", { model: e.provider + "/" + e.modelId }) };
    case "thinking_level_change": return { kind: "setting", text: tr("tree.thinking", { level: e.thinkingLevel }) };
    case "session_info": return { kind: "setting", text: tr("tree.name", { name: e.name || "" }) };
    default: return { kind: "setting", text: "[" + e.type + "]" };
  }
}

/** All rows in depth-first order: {e, kind, text, quiet, end (first row after the subtree)}. */
function flattenTree() {
  var onPath = Object.create(null);
  pathTo(leafId).forEach(function (e) { onPath[e.id] = true; });
  var first = function (a, b) { return (onPath[b.id] ? 1 : 0) - (onPath[a.id] ? 1 : 0); };
  var rows = [];
  var stack = roots.slice().sort(first).reverse().map(function (e) { return { e: e }; });
  while (stack.length) {
    var v = stack.pop();
    if (v.exit) { v.row.end = rows.length; continue; }
    var e = v.e;
    if (e.type === "label") { continue; }
    var row = describe(e);
    row.e = e;
    row.index = rows.length;
    rows.push(row);
    stack.push({ exit: true, row: row });
    var k = (kids[e.id] || []).slice().sort(first);
    for (var i = k.length - 1; i >= 0; i--) { stack.push({ e: k[i] }); }
  }
  return rows;
}

/** The row standing for the leaf: the leaf, or the nearest entry above it that has a row (not a label). */
var leafRow = null;
function rowFor(id, rows) {
  var has = Object.create(null);
  rows.forEach(function (r) { has[r.e.id] = true; });
  while (id && byId[id] && !has[id]) { id = byId[id].parentId; }
  return id && has[id] ? id : null;
}

/** Whether `row` is listed under `filter` (default, no-tools, user, labeled, all). */
function passesFilter(row, filter) {
  if (row.quiet && row.e.id !== leafRow && filter !== "all") { return false; }
  switch (filter) {
    case "user": return row.kind === "user" && roleOf(row.e) === "user";
    case "no-tools": return row.kind !== "setting" && row.kind !== "tool";
    case "labeled": return !!labels[row.e.id];
    case "all": return true;
    default: return row.kind !== "setting";
  }
}
function matchesQuery(row, words) {
  if (!words.length) { return true; }
  if (row.hay === undefined) {
    var e = row.e, m = e.message || {};
    row.hay = (row.text + " " + (labels[e.id] || "") + " " + textOf(m.content || e.content) + " " +
      (e.summary || m.summary || "")).toLowerCase();
  }
  return words.every(function (w) { return row.hay.indexOf(w) >= 0; });
}

/** The branch lines of `shown` (rows in depth-first order) as `/tree` draws them. */
function guides(shown) {
  var parents = [], open = [];
  shown.forEach(function (row, pos) {
    while (open.length && shown[open[open.length - 1]].end <= row.index) { open.pop(); }
    parents.push(open.length ? open[open.length - 1] : -1);
    open.push(pos);
  });
  var children = shown.map(function () { return []; });
  var tops = [];
  parents.forEach(function (p, pos) { if (p < 0) { tops.push(pos); } else { children[p].push(pos); } });
  var several = tops.length > 1;
  var out = new Array(shown.length);
  var stack = [];
  for (var i = tops.length - 1; i >= 0; i--) {
    stack.push({ pos: tops[i], indent: several ? 1 : 0, conn: several, last: i === tops.length - 1, gut: [], top: several, just: several });
  }
  var shownIndent = function (n) { return several ? Math.max(0, n - 1) : n; };
  while (stack.length) {
    var l = stack.pop();
    var k = children[l.pos];
    var branches = k.length > 1;
    var childIndent = branches || (l.just && l.indent > 0) ? l.indent + 1 : l.indent;
    var gut = l.gut;
    if (l.conn && !l.top) { gut = gut.concat([{ level: Math.max(0, shownIndent(l.indent) - 1), show: !l.last }]); }
    for (var j = k.length - 1; j >= 0; j--) {
      stack.push({ pos: k[j], indent: childIndent, conn: branches, last: j === k.length - 1, gut: gut, top: false, just: branches });
    }
    out[l.pos] = draw(l, shownIndent(l.indent));
  }
  return out;
}
function draw(l, levels) {
  var connAt = l.conn && !l.top ? levels - 1 : -1;
  var s = "";
  for (var level = 0; level < levels; level++) {
    var g = null;
    for (var i = 0; i < l.gut.length; i++) { if (l.gut[i].level === level) { g = l.gut[i]; break; } }
    if (g) { s += g.show ? "│  " : "   "; }
    else if (level === connAt) { s += l.last ? "└─ " : "├─ "; }
    else { s += "   "; }
  }
  return s;
}
