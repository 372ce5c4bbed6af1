// Markdown and code: a small Markdown renderer (escaped first, links only to
// http, https and mailto) and a small syntax highlighter for common languages.
function esc(s) {
  return String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

var LANGS = { ts: "js", tsx: "js", js: "js", jsx: "js", mjs: "js", cjs: "js", javascript: "js", typescript: "js",
  json: "json", rs: "rs", rust: "rs", py: "py", python: "py", sh: "sh", bash: "sh", zsh: "sh", shell: "sh",
  console: "sh", go: "go", c: "c", h: "c", cc: "c", cpp: "c", hpp: "c", java: "c", kt: "c", swift: "c",
  cs: "c", lua: "lua", toml: "conf", yaml: "conf", yml: "conf", ini: "conf", css: "css", scss: "css",
  html: "html", xml: "html", svg: "html", rb: "py", diff: "diff", patch: "diff" };
var KEYWORDS = {
  js: "async await break case catch class const continue default delete do else export extends false finally for from function if import in instanceof interface let new null of private public readonly return static super switch this throw true try type typeof undefined var void while yield enum implements protected",
  rs: "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while Some None Ok Err",
  py: "and as assert async await break class continue def del elif else except False finally for from global if import in is lambda None nonlocal not or pass raise return True try while with yield self end do then module require",
  sh: "if then else elif fi for while do done case esac in function return local export echo cd exit set unset source true false",
  go: "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var nil true false",
  c: "auto break case char class const continue default do double else enum extern float for goto if int long namespace new private protected public return short signed sizeof static struct switch template this typedef union unsigned void volatile while bool true false null nullptr final fun val override package import",
  lua: "and break do else elseif end false for function goto if in local nil not or repeat return then true until while",
  json: "true false null", conf: "true false", css: "important", html: "" };
var KW_SETS = {};
Object.keys(KEYWORDS).forEach(function (k) {
  KW_SETS[k] = Object.create(null);
  KEYWORDS[k].split(" ").forEach(function (w) { if (w) { KW_SETS[k][w] = true; } });
});
var COMMENT = { js: "//[^\\n]*|/\\*[\\s\\S]*?\\*/", rs: "//[^\\n]*|/\\*[\\s\\S]*?\\*/", go: "//[^\\n]*|/\\*[\\s\\S]*?\\*/",
  c: "//[^\\n]*|/\\*[\\s\\S]*?\\*/", css: "/\\*[\\s\\S]*?\\*/", py: "#[^\\n]*", sh: "#[^\\n]*", conf: "#[^\\n]*",
  lua: "--[^\\n]*", html: "<!--[\\s\\S]*?-->", json: "(?!)" };
var TOKEN_RES = {};

function langOf(name) {
  name = String(name || "").toLowerCase();
  var ext = name.indexOf(".") >= 0 ? name.slice(name.lastIndexOf(".") + 1) : name;
  return LANGS[ext] || null;
}

/** `code` as HTML with spans for comments, strings, numbers and keywords. */
function highlight(code, lang) {
  lang = LANGS[lang] || lang;
  if (!lang || !KW_SETS[lang] || code.length > 200000) { return esc(code); }
  if (lang === "diff") { return esc(code); }
  var re = TOKEN_RES[lang];
  if (!re) {
    re = TOKEN_RES[lang] = new RegExp("(" + COMMENT[lang] + ")|(\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\\\n])*'|`(?:\\\\.|[^`\\\\])*`)" +
      "|(\\b\\d[\\w.]*)|([A-Za-z_$][\\w$]*)", "g");
  }
  var kw = KW_SETS[lang];
  var out = "", last = 0, m;
  re.lastIndex = 0;
  while ((m = re.exec(code))) {
    if (m.index > last) { out += esc(code.slice(last, m.index)); }
    var t = m[0], cls = null;
    if (m[1]) { cls = "c"; }
    else if (m[2]) { cls = "s"; }
    else if (m[3]) { cls = "n"; }
    else if (kw[t]) { cls = "k"; }
    else if (code.charAt(re.lastIndex) === "(") { cls = "f"; }
    else if (/^[A-Z][a-z]/.test(t)) { cls = "t"; }
    out += cls ? "<span class=\"hl-" + cls + "\">" + esc(t) + "</span>" : esc(t);
    last = re.lastIndex;
    if (t.length === 0) { re.lastIndex++; }
  }
  return out + esc(code.slice(last));
}

function safeUrl(url) {
  return /^(https?:|mailto:)/i.test(url) ? url : null;
}
function link(url, text) {
  var ok = safeUrl(url);
  return ok ? "<a href=\"" + esc(ok) + "\" target=\"_blank\" rel=\"noopener noreferrer\">" + text + "</a>" : text;
}

/** Inline Markdown of one escaped-on-the-way line: code, links, bold, italics. */
function inline(text) {
  var parts = String(text).split(/(`[^`\n]+`)/);
  return parts.map(function (p, i) {
    if (i % 2 === 1) { return "<code>" + esc(p.slice(1, -1)) + "</code>"; }
    var links = [];
    var s = p.replace(/\[([^\]\n]+)\]\(([^)\s]+)\)|(https?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?])/g, function (all, label, url, bare) {
      links.push(bare ? link(bare, esc(bare)) : link(url, esc(label)));
      return "\u0000" + (links.length - 1) + "\u0000";
    });
    s = esc(s)
      .replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
      .replace(/(^|[^\w*])\*([^*\n]+)\*(?!\w)/g, "$1<em>$2</em>")
      .replace(/(^|[^\w_])_([^_\n]+)_(?!\w)/g, "$1<em>$2</em>");
    return s.replace(/\u0000(\d+)\u0000/g, function (all, n) { return links[+n]; });
  }).join("");
}

/** Markdown `text` as HTML. */
function markdown(text) {
  var lines = String(text || "").split("\n");
  var out = [], para = [], list = null;
  function flush() {
    if (para.length) { out.push("<p>" + para.map(inline).join("<br>") + "</p>"); para = []; }
    if (list) { out.push("</" + list + ">"); list = null; }
  }
  for (var i = 0; i < lines.length; i++) {
    var line = lines[i];
    var fence = /^\s*(```+|~~~+)\s*([\w+#.-]*)/.exec(line);
    if (fence) {
      flush();
      var body = [];
      for (i++; i < lines.length && lines[i].trim().indexOf(fence[1]) !== 0; i++) { body.push(lines[i]); }
      out.push("<pre class=\"code\"><code>" + highlight(body.join("\n"), fence[2].toLowerCase()) + "</code></pre>");
      continue;
    }
    var h = /^(#{1,6})\s+(.*)$/.exec(line);
    var li = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (h) { flush(); out.push("<h" + h[1].length + ">" + inline(h[2]) + "</h" + h[1].length + ">"); }
    else if (li) {
      if (para.length) { var keep = list; list = null; flush(); list = keep; }
      var kind = /\d/.test(li[1]) ? "ol" : "ul";
      if (list !== kind) { if (list) { out.push("</" + list + ">"); } out.push("<" + kind + ">"); list = kind; }
      out.push("<li>" + inline(li[2]) + "</li>");
    } else if (/^\s*>/.test(line)) { flush(); out.push("<blockquote>" + inline(line.replace(/^\s*>\s?/, "")) + "</blockquote>"); }
    else if (/^\s*(---+|\*\*\*+)\s*$/.test(line)) { flush(); out.push("<hr>"); }
    else if (!line.trim()) { flush(); }
    else { if (list) { flush(); } para.push(line); }
  }
  flush();
  return out.join("");
}
