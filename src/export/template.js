(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("session-data").textContent);
  var entries = data.entries || [];
  var byId = {};
  var children = {};
  var roots = [];
  entries.forEach(function (e) {
    byId[e.id] = e;
    var parent = e.parentId && byId[e.parentId] ? e.parentId : null;
    if (parent) { (children[parent] = children[parent] || []).push(e); } else { roots.push(e); }
  });
  var labels = {};
  entries.forEach(function (e) {
    if (e.type === "label") { if (e.label) { labels[e.targetId] = e.label; } else { delete labels[e.targetId]; } }
  });
  var selected = data.leafId || (entries.length ? entries[entries.length - 1].id : null);

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }
  function textOf(content) {
    if (typeof content === "string") { return content; }
    return (content || []).filter(function (b) { return b.type === "text"; })
      .map(function (b) { return b.text; }).join("\n");
  }
  function images(node, content) {
    if (!Array.isArray(content)) { return; }
    content.forEach(function (b) {
      if (b.type === "image" && b.data) {
        var img = el("img");
        img.src = "data:" + (b.mimeType || "image/png") + ";base64," + b.data;
        img.alt = "image";
        node.appendChild(img);
      }
    });
  }
  function pathTo(id) {
    var path = [];
    var seen = {};
    while (id && byId[id] && !seen[id]) { seen[id] = true; path.push(byId[id]); id = byId[id].parentId; }
    return path.reverse();
  }
  function diffNode(diff) {
    var pre = el("div", "diff");
    String(diff).split("\n").forEach(function (line) {
      var cls = line.charAt(0) === "+" ? "add" : line.charAt(0) === "-" ? "del" : "ctx";
      pre.appendChild(el("div", cls, line));
    });
    return pre;
  }
  function toolArgs(call) {
    var a = call.arguments || {};
    if (call.name === "bash" && a.command) { return "$ " + a.command; }
    if (a.path) { return a.path; }
    return JSON.stringify(a);
  }

  function renderMessage(entry, m, tools) {
    var node;
    switch (m.role) {
      case "user":
        node = el("div", "msg user");
        node.appendChild(el("div", "who", "user"));
        node.appendChild(el("div", "body", textOf(m.content)));
        images(node, m.content);
        return node;
      case "assistant":
        node = el("div", "msg assistant");
        node.appendChild(el("div", "who", "assistant" + (m.model ? " · " + m.model : "")));
        (m.content || []).forEach(function (b) {
          if (b.type === "text") { node.appendChild(el("div", "body", b.text)); }
          else if (b.type === "thinking") { node.appendChild(el("div", "thinking", b.thinking)); }
          else if (b.type === "toolCall") {
            var card = el("div", "tool");
            card.dataset.toolCallId = b.id;
            card.appendChild(el("span", "title", b.name + " "));
            card.appendChild(el("span", "args", toolArgs(b)));
            node.appendChild(card);
            tools[b.id] = card;
          }
        });
        if (m.errorMessage) { node.appendChild(el("div", "msg error", "Error: " + m.errorMessage)); }
        return node;
      case "toolResult":
        var target = tools[m.toolCallId];
        var out = el("div", "output", textOf(m.content));
        images(out, m.content);
        if (m.details && m.details.diff) { out.appendChild(diffNode(m.details.diff)); }
        if (target) {
          target.classList.add(m.isError ? "failed" : "ok");
          target.appendChild(out);
          return null;
        }
        node = el("div", "msg tool " + (m.isError ? "failed" : "ok"));
        node.appendChild(el("div", "who", "result · " + m.toolName));
        node.appendChild(out);
        return node;
      case "bashExecution":
        node = el("div", "msg tool " + (m.exitCode === 0 ? "ok" : "failed"));
        node.appendChild(el("span", "title", "$ " + m.command));
        node.appendChild(el("div", "output", m.output));
        return node;
      case "custom":
        node = el("div", "msg custom");
        node.appendChild(el("div", "who", m.customType || "custom"));
        node.appendChild(el("div", "body", textOf(m.content)));
        return node;
      case "branchSummary":
      case "compactionSummary":
        node = el("div", "msg summary");
        node.appendChild(el("div", "who", m.role === "branchSummary" ? "branch summary" : "compaction summary"));
        node.appendChild(el("div", "body", m.summary));
        return node;
      default:
        return el("div", "msg info", "[" + m.role + "]");
    }
  }

  function renderEntry(entry, tools) {
    switch (entry.type) {
      case "message": return renderMessage(entry, entry.message || {}, tools);
      case "custom_message":
        if (entry.display === false) { return null; }
        return renderMessage(entry, { role: "custom", customType: entry.customType, content: entry.content }, tools);
      case "compaction":
        var c = el("div", "msg summary");
        c.appendChild(el("div", "who", "compaction · " + (entry.tokensBefore || 0) + " tokens before"));
        c.appendChild(el("div", "body", entry.summary));
        return c;
      case "branch_summary":
        var b = el("div", "msg summary");
        b.appendChild(el("div", "who", "branch summary"));
        b.appendChild(el("div", "body", entry.summary));
        return b;
      case "model_change": return el("div", "msg info", "model: " + entry.provider + "/" + entry.modelId);
      case "thinking_level_change": return el("div", "msg info", "thinking: " + entry.thinkingLevel);
      case "session_info": return entry.name ? el("div", "msg info", "session name: " + entry.name) : null;
      default: return null;
    }
  }

  function renderMessages() {
    var box = document.getElementById("messages");
    box.textContent = "";
    var tools = {};
    pathTo(selected).forEach(function (entry) {
      var node = renderEntry(entry, tools);
      if (node) { node.dataset.entryId = entry.id; box.appendChild(node); }
    });
    applySearch();
  }

  function nodeLabel(e) {
    if (e.type === "message" && e.message) {
      var m = e.message;
      if (m.role === "user") { return textOf(m.content); }
      if (m.role === "assistant") {
        var t = textOf(m.content);
        if (t) { return t; }
        var calls = (m.content || []).filter(function (b) { return b.type === "toolCall"; })
          .map(function (b) { return b.name; });
        return calls.length ? "[" + calls.join(", ") + "]" : "[" + m.stopReason + "]";
      }
      return "[" + m.role + (m.toolName ? " " + m.toolName : "") + "]";
    }
    return "[" + e.type + "]";
  }

  function renderTree() {
    var box = document.getElementById("tree");
    box.textContent = "";
    var onPath = {};
    var path = pathTo(selected);
    path.forEach(function (e) { onPath[e.id] = true; });
    // Labels are not listed: mark the entry nearest the leaf that is.
    var marked = null;
    for (var p = path.length - 1; p >= 0 && !marked; p--) {
      if (path[p].type !== "label") { marked = path[p].id; }
    }
    var stack = roots.slice().reverse().map(function (e) { return [e, 0]; });
    while (stack.length) {
      var item = stack.pop();
      var e = item[0], depth = item[1];
      if (e.type !== "label") {
        var role = e.type === "message" && e.message ? e.message.role : e.type;
        var node = el("div", "node role-" + role + (onPath[e.id] ? " on-path" : "") + (e.id === marked ? " selected" : ""));
        node.style.paddingLeft = (4 + depth * 12) + "px";
        node.textContent = nodeLabel(e).replace(/\s+/g, " ").slice(0, 80);
        if (labels[e.id]) { node.appendChild(el("span", "label", labels[e.id])); }
        node.title = e.id;
        node.dataset.entryId = e.id;
        node.addEventListener("click", select.bind(null, e.id));
        box.appendChild(node);
      }
      var kids = children[e.id] || [];
      var next = kids.length > 1 ? depth + 1 : depth;
      for (var i = kids.length - 1; i >= 0; i--) { stack.push([kids[i], next]); }
    }
  }

  function select(id) {
    selected = id;
    renderTree();
    renderMessages();
  }

  function applySearch() {
    var query = document.getElementById("search").value.trim().toLowerCase();
    var shown = 0, total = 0;
    document.querySelectorAll("#messages .msg").forEach(function (node) {
      total++;
      var hit = !query || node.textContent.toLowerCase().indexOf(query) >= 0;
      node.classList.toggle("hidden", !hit);
      if (hit) { shown++; }
    });
    document.getElementById("search-count").textContent = query ? shown + " of " + total + " match" : "";
  }

  // "#leaf=<entry id>&search=<text>" opens a branch and a search directly.
  var params = {};
  location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
    var at = pair.indexOf("=");
    if (at > 0) { params[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1)); }
  });
  if (params.leaf && byId[params.leaf]) { selected = params.leaf; }
  if (params.search) { document.getElementById("search").value = params.search; }
  var header = document.getElementById("session-header");
  header.appendChild(el("h1", null, document.title));
  var h = data.header || {};
  header.appendChild(el("div", null, (h.cwd || "") + " · " + (h.timestamp || "") + " · " + entries.length + " entries"));
  document.getElementById("search").addEventListener("input", applySearch);
  select(selected);
})();
