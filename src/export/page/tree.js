// The sidebar: the session tree as `/tree` draws it, filtered and searched,
// drawn as a window of rows (long sessions stay fast), a cursor moved by keys
// and a position counter; a click opens the entry's branch and scrolls to it.
var ROW_H = 20;
var ui = { filter: "default", query: "", rows: [], shown: [], lines: [], active: null, cursor: 0 };
var treeBox = document.getElementById("tree");
var treeInner = document.getElementById("tree-rows");
var statusBox = document.getElementById("tree-status");

function refilter() {
  var words = ui.query.toLowerCase().split(/\s+/).filter(Boolean);
  ui.shown = ui.rows.filter(function (r) { return passesFilter(r, ui.filter) && matchesQuery(r, words); });
  ui.lines = guides(ui.shown);
  var at = activePos();
  ui.cursor = at >= 0 ? at : Math.min(ui.cursor, Math.max(0, ui.shown.length - 1));
  treeInner.style.height = ui.shown.length * ROW_H + "px";
  var buttons = document.querySelectorAll("#filters button");
  for (var i = 0; i < buttons.length; i++) {
    buttons[i].classList.toggle("on", buttons[i].dataset.filter === ui.filter);
  }
  drawRows();
}

function activePos() {
  for (var i = 0; i < ui.shown.length; i++) { if (ui.shown[i].e.id === ui.active) { return i; } }
  return -1;
}

function highlightText(text) {
  if (!ui.query.trim()) { return esc(text); }
  var words = ui.query.toLowerCase().split(/\s+/).filter(Boolean)
    .map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); });
  var re = new RegExp("(" + words.join("|") + ")", "gi");
  return String(text).split(re).map(function (p, i) { return i % 2 ? "<mark>" + esc(p) + "</mark>" : esc(p); }).join("");
}

/** Draw the rows in sight (and a margin), each at its place in the full list. */
function drawRows() {
  var first = Math.max(0, Math.floor(treeBox.scrollTop / ROW_H) - 20);
  var last = Math.min(ui.shown.length, first + Math.ceil((treeBox.clientHeight || 800) / ROW_H) + 40);
  var onPath = view.index;
  var frag = document.createDocumentFragment();
  for (var i = first; i < last; i++) {
    var r = ui.shown[i];
    var id = r.e.id;
    var row = el("div", "node kind-" + r.kind + (onPath[id] !== undefined && (view.path[onPath[id]] === r.e || r.e.joined) ? " on-path" : "") +
      (id === ui.active ? " active" : "") + (i === ui.cursor ? " cursor" : ""));
    row.style.top = i * ROW_H + "px";
    row.dataset.entryId = id;
    row.dataset.pos = i;
    row.title = r.text;
    row.appendChild(el("span", "guide", ui.lines[i]));
    row.appendChild(html("span", "text", highlightText(r.text)));
    if (labels[id]) { row.appendChild(el("span", "label", labels[id])); }
    frag.appendChild(row);
  }
  treeInner.textContent = "";
  treeInner.appendChild(frag);
  var pos = activePos();
  statusBox.textContent = tr("tree_status", { pos: pos >= 0 ? pos + 1 : "–", shown: ui.shown.length, total: ui.rows.length });
}

function scrollTreeTo(pos) {
  if (pos < 0) { return; }
  var top = pos * ROW_H, h = treeBox.clientHeight;
  if (top < treeBox.scrollTop || top + ROW_H > treeBox.scrollTop + h) {
    treeBox.scrollTop = Math.max(0, top - h / 2);
  }
  drawRows();
}

/** Open entry `id`: its branch (down to the newest entry below it) if it is not shown, then scroll to it. */
function openEntry(id) {
  if (!byId[id]) { return; }
  var e = byId[id];
  if (view.index[id] === undefined || view.path[view.index[id]] !== e && !e.joined) {
    showBranch(newestLeaf(id));
  }
  ui.active = id;
  var pos = activePos();
  if (pos >= 0) { ui.cursor = pos; }
  drawRows();
  scrollToEntry(id);
}

treeBox.addEventListener("scroll", function () { requestAnimationFrame(drawRows); });
treeInner.addEventListener("click", function (ev) {
  var row = ev.target.closest(".node");
  if (!row) { return; }
  ui.cursor = +row.dataset.pos;
  openEntry(row.dataset.entryId);
  treeBox.focus({ preventScroll: true });
});
treeBox.addEventListener("keydown", function (ev) {
  var step = { ArrowDown: 1, ArrowUp: -1, PageDown: 20, PageUp: -20, Home: -1e9, End: 1e9 }[ev.key];
  if (step) {
    ev.preventDefault();
    ui.cursor = Math.max(0, Math.min(ui.shown.length - 1, ui.cursor + step));
    scrollTreeTo(ui.cursor);
  } else if (ev.key === "Enter" && ui.shown[ui.cursor]) {
    ev.preventDefault();
    openEntry(ui.shown[ui.cursor].e.id);
  }
});
document.getElementById("filters").addEventListener("click", function (ev) {
  var b = ev.target.closest("button");
  if (!b) { return; }
  ui.filter = b.dataset.filter;
  refilter();
  scrollTreeTo(activePos());
});
