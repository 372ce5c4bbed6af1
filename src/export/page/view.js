// The conversation pane: the branch shown, cut into chunks rendered as they
// come near the screen, scrolling to an entry and marking it, search marks.
var CHUNK = 25;
var view = { path: [], index: Object.create(null), results: Object.create(null), chunks: [], leaf: null };
var messagesBox = document.getElementById("messages");
var observer = "IntersectionObserver" in window ? new IntersectionObserver(function (seen) {
  seen.forEach(function (s) { if (s.isIntersecting) { renderChunk(+s.target.dataset.chunk); } });
}, { rootMargin: "1500px 0px" }) : null;

/** Show the branch ending at `leaf` (nothing is rendered until it is near the screen). */
function showBranch(leaf) {
  view.leaf = leaf;
  view.path = pathTo(leaf);
  view.index = Object.create(null);
  view.results = Object.create(null);
  var calls = Object.create(null);
  view.path.forEach(function (e, i) {
    view.index[e.id] = i;
    var m = e.message;
    if (!m) { return; }
    if (m.role === "assistant") {
      (m.content || []).forEach(function (b) { if (b && b.type === "toolCall") { calls[b.id] = i; } });
    } else if (m.role === "toolResult" && calls[m.toolCallId] !== undefined) {
      view.results[resultKey(view.path[calls[m.toolCallId]].id, m.toolCallId)] = e;
      e.joined = true;
      view.index[e.id] = calls[m.toolCallId];
    }
  });
  if (observer) { observer.disconnect(); }
  messagesBox.textContent = "";
  view.chunks = [];
  for (var start = 0; start < view.path.length; start += CHUNK) {
    var box = el("div", "chunk");
    box.dataset.chunk = view.chunks.length;
    box.style.minHeight = Math.min(CHUNK, view.path.length - start) * 90 + "px";
    view.chunks.push({ start: start, box: box, done: false });
    messagesBox.appendChild(box);
    if (observer) { observer.observe(box); }
  }
  if (!observer) { view.chunks.forEach(function (c, i) { renderChunk(i); }); }
}

function renderChunk(i) {
  var c = view.chunks[i];
  if (!c || c.done) { return; }
  c.done = true;
  var frag = document.createDocumentFragment();
  var end = Math.min(view.path.length, c.start + CHUNK);
  for (var k = c.start; k < end; k++) {
    var e = view.path[k];
    var node = renderEntry(e, view.results);
    if (!node) { continue; }
    if (!node.id) { node.id = "entry-" + e.id; }
    node.dataset.entryId = e.id;
    frag.appendChild(node);
  }
  c.box.textContent = "";
  c.box.appendChild(frag);
  c.box.style.minHeight = "";
  if (observer) { observer.unobserve(c.box); }
  if (ui.query) { markMatches(c.box, ui.query); }
}

function renderAll() { view.chunks.forEach(function (c, i) { renderChunk(i); }); }

/** Render again what was rendered (a new search). */
function rerender() {
  view.chunks.forEach(function (c, i) {
    if (c.done) { c.done = false; renderChunk(i); }
  });
}

/** The DOM node showing `id` on the current branch (rendering its chunk). */
function nodeOf(id) {
  var at = view.index[id];
  if (at === undefined) { return null; }
  renderChunk(Math.floor(at / CHUNK));
  var node = document.getElementById("entry-" + id);
  // Entries drawn inside another (labels, names) lead to the nearest one before them.
  for (var k = at; !node && k >= 0; k--) { node = document.getElementById("entry-" + view.path[k].id); }
  return node;
}

function scrollToEntry(id) {
  var node = nodeOf(id);
  if (!node) { return; }
  var old = document.querySelectorAll(".target");
  for (var i = 0; i < old.length; i++) { old[i].classList.remove("target"); }
  node.classList.add("target");
  // The chunks before it take their real height as they render: scroll once more after.
  node.scrollIntoView({ block: "start" });
  requestAnimationFrame(function () { node.scrollIntoView({ block: "start" }); });
}

/** Wrap the words of `query` in `<mark>` inside the text of `root`. */
function markMatches(root, query) {
  var words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) { return; }
  var re = new RegExp(words.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }).join("|"), "gi");
  var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, null);
  var texts = [];
  while (walker.nextNode()) { texts.push(walker.currentNode); }
  texts.forEach(function (t) {
    if (!re.test(t.nodeValue) || (t.parentNode && t.parentNode.closest("button"))) { re.lastIndex = 0; return; }
    re.lastIndex = 0;
    var frag = document.createDocumentFragment(), s = t.nodeValue, last = 0, m;
    while ((m = re.exec(s))) {
      frag.appendChild(document.createTextNode(s.slice(last, m.index)));
      frag.appendChild(el("mark", null, m[0]));
      last = re.lastIndex;
    }
    frag.appendChild(document.createTextNode(s.slice(last)));
    t.parentNode.replaceChild(frag, t);
  });
}
