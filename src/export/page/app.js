// The page put together: the header with the session's figures, the toggles
// and their keys, search, the JSONL download, copy as Markdown, printing and
// the start-up ("#leaf=<id>", "#entry=<id>", "#search=<text>" in the address).
/** The header; `s` holds the session's figures (counted as pi 0.73.1 counts them). */
function renderHeader(s) {
  var box = document.getElementById("session-header");
  box.appendChild(el("h1", null, document.title));
  var bar = el("div", "help-bar");
  bar.appendChild(el("span", "hint", tr("keys_hint")));
  var actions = el("div", "actions");
  [["toggle-thinking", tr("toggle_thinking")], ["toggle-tools", tr("toggle_tools")], ["download", tr("download")],
    ["print", tr("print")]].forEach(function (b) {
    var button = el("button", null, b[1]);
    button.type = "button";
    button.id = b[0];
    actions.appendChild(button);
  });
  bar.appendChild(actions);
  box.appendChild(bar);
  var msgs = [];
  if (s.user) { msgs.push(tr("count_user", { count: s.user })); }
  if (s.assistant) { msgs.push(tr("count_assistant", { count: s.assistant })); }
  if (s.toolResult) { msgs.push(tr("count_tool_results", { count: s.toolResult })); }
  if (s.custom) { msgs.push(tr("count_custom", { count: s.custom })); }
  if (s.compactions) { msgs.push(tr("count_compactions", { count: s.compactions })); }
  if (s.branchSummaries) { msgs.push(tr("count_branch_summaries", { count: s.branchSummaries })); }
  var tokens = [];
  if (s.input) { tokens.push("↑" + fmtTokens(s.input)); }
  if (s.output) { tokens.push("↓" + fmtTokens(s.output)); }
  if (s.cacheRead) { tokens.push("R" + fmtTokens(s.cacheRead)); }
  if (s.cacheWrite) { tokens.push("W" + fmtTokens(s.cacheWrite)); }
  var started = Date.parse(header.timestamp);
  var info = el("dl", "info");
  [["date", isNaN(started) ? "–" : new Date(started).toLocaleString()], ["folder", header.cwd || "–"],
    ["models", s.models.join(", ") || "–"], ["messages", msgs.join(", ") || "0"],
    ["tool_calls", String(s.toolCalls)], ["tokens", tokens.join(" ") || "0"], ["cost", "$" + s.cost.toFixed(3)]]
    .forEach(function (item) {
      info.appendChild(el("dt", null, tr("info_" + item[0])));
      var dd = el("dd", null, item[1]);
      dd.id = "info-" + item[0];
      info.appendChild(dd);
    });
  box.appendChild(info);
}

function toggleThinking() { document.body.classList.toggle("show-thinking"); }
function toggleTools() { document.body.classList.toggle("hide-tools"); }

function downloadJsonl() {
  var lines = [JSON.stringify(header)].concat(entries.map(function (e) {
    var copy = {};
    Object.keys(e).forEach(function (k) { if (k !== "joined") { copy[k] = e[k]; } });
    return JSON.stringify(copy);
  }));
  var a = el("a");
  a.href = URL.createObjectURL(new Blob([lines.join("\n") + "\n"], { type: "application/jsonl" }));
  a.download = (header.id || "session") + ".jsonl";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function copyText(text, button) {
  var done = function () {
    var was = button.textContent;
    button.textContent = tr("copied");
    setTimeout(function () { button.textContent = was; }, 1200);
  };
  var fallback = function () {
    var area = el("textarea");
    area.value = text;
    document.body.appendChild(area);
    area.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing more to try */ }
    area.remove();
    done();
  };
  if (navigator.clipboard && window.isSecureContext) { navigator.clipboard.writeText(text).then(done, fallback); }
  else { fallback(); }
}

var searchBox = document.getElementById("search");
var searchTimer = null;
function applySearch() {
  ui.query = searchBox.value.trim();
  refilter();
  rerender();
}
searchBox.addEventListener("input", function () {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(applySearch, entries.length > 5000 ? 200 : 60);
});
searchBox.addEventListener("keydown", function (ev) {
  if (ev.key === "Escape") { searchBox.value = ""; applySearch(); searchBox.blur(); }
  if (ev.key === "Enter" || ev.key === "ArrowDown") { ev.preventDefault(); treeBox.focus(); }
});

document.addEventListener("click", function (ev) {
  var b = ev.target.closest("button");
  if (!b) { return; }
  if (b.id === "toggle-thinking") { toggleThinking(); }
  else if (b.id === "toggle-tools") { toggleTools(); }
  else if (b.id === "download") { downloadJsonl(); }
  else if (b.id === "print") { window.print(); }
  else if (b.classList.contains("copy") && byId[b.dataset.entryId]) {
    copyText(entryMarkdown(byId[b.dataset.entryId], view.results), b);
  }
});
document.addEventListener("keydown", function (ev) {
  var typing = ev.target && (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA");
  if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
  var key = ev.key.toLowerCase();
  if (key === "t") { toggleThinking(); }
  else if (key === "o") { toggleTools(); }
  else if (ev.key === "/") { ev.preventDefault(); searchBox.focus(); }
  else if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && ev.target === document.body) {
    ev.preventDefault();
    treeBox.focus();
  }
});
window.addEventListener("beforeprint", renderAll);

/** The session packed in the page (gzip-compressed JSON in base64), unpacked. */
function unpack(text) {
  var bytes;
  if (Uint8Array.fromBase64) { bytes = Uint8Array.fromBase64(text.trim()); } else {
    var packed = atob(text.trim());
    bytes = new Uint8Array(packed.length);
    for (var i = 0; i < packed.length; i++) { bytes[i] = packed.charCodeAt(i); }
  }
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).text().then(JSON.parse);
}

(function start() {
  var params = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
    var at = pair.indexOf("=");
    if (at > 0) { params[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1)); }
  });
  // The page holds the header's figures and the first screen of the branch in plain JSON
  // before the whole session: they are drawn while the rest loads.
  var first = JSON.parse(document.getElementById("session-head").textContent);
  load(first);
  renderHeader(first.stats);
  if (!params.leaf && !params.entry) {
    showBranch(leafId);
    renderChunk(0);
  }
  function all() {
    unpack(document.getElementById("session-data").textContent).then(function (whole) {
      whole.strings = first.strings;
      load(whole);
      if (params.leaf && byId[params.leaf]) { leafId = params.leaf; }
      if (params.search) { searchBox.value = params.search; ui.query = params.search.trim(); }
      showBranch(leafId);
      renderChunk(0);
      ui.rows = flattenTree();
      leafRow = rowFor(leafId, ui.rows);
      ui.active = leafRow;
      refilter();
      scrollTreeTo(activePos());
      if (params.entry && byId[params.entry]) { openEntry(params.entry); }
      document.body.dataset.ready = "1";
    }).catch(function (e) {
      // What was drawn stays; the failure is said above it.
      messagesBox.insertBefore(el("div", "msg error", String(e)), messagesBox.firstChild);
      console.error(e);
    });
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", all); } else { all(); }
})();
