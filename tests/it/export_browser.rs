//! The exported page of pi 0.73.1's large test session (1,018 entries) in a
//! real headless Chromium, driven through the DevTools protocol: the header's
//! figures, the tree's filters, a click, the search, the toggles and keys, and
//! that the page logs no error and makes no request. A screenshot is kept in
//! the target folder (`export-screens/ours-large-session.png`) for review.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::browser::{
    PageRun, devtools, js, run_page, run_page_loaded, screenshot, sleep,
};
use crate::support::pi_cli::PiSandbox;

/// Waits two frames (the tree draws its rows on the next frame after a scroll).
const FRAME: &str =
    "const frame = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));";

fn export_large(sandbox: &PiSandbox) -> PathBuf {
    let source = sandbox.project.join("large-session.jsonl");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/conformance/large-session.jsonl"),
        &source,
    )
    .unwrap();
    let page = sandbox.project.join("large.html");
    let out = sandbox.run(
        &["--export", source.to_str().unwrap(), page.to_str().unwrap()],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    page
}

fn screens_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("export-screens");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn clean(run: &PageRun, page: &Path) {
    assert!(
        run.console_errors.is_empty(),
        "console errors: {:?}",
        run.console_errors
    );
    assert!(
        run.outside_requests(page).is_empty(),
        "the page made requests: {:?}",
        run.outside_requests(page)
    );
    assert!(
        run.requests.iter().any(|u| u.starts_with("file://")),
        "the request log works (the page itself is in it): {:?}",
        run.requests
    );
}

#[test]
fn header_filters_click_and_search_in_a_real_browser() {
    let sandbox = PiSandbox::new();
    let page = export_large(&sandbox);
    let shot = screens_dir().join("ours-large-session.png");
    let _ = std::fs::remove_file(&shot);
    let run = run_page(
        &page,
        "",
        &[
            screenshot(&shot),
            js("({messages: document.getElementById('info-messages').textContent,
                 toolCalls: document.getElementById('info-tool_calls').textContent,
                 cost: document.getElementById('info-cost').textContent,
                 status: document.getElementById('tree-status').textContent,
                 activeRows: document.querySelectorAll('#tree .node.active').length,
                 chunks: document.querySelectorAll('.chunk').length,
                 rendered: [...document.querySelectorAll('.chunk')].filter(c => c.childElementCount).length})"),
            js(&format!("(async () => {{ {FRAME}
                document.querySelector('#filters [data-filter=user]').click();
                const tree = document.getElementById('tree');
                const ids = new Set(), kinds = new Set();
                for (let top = 0; top <= tree.scrollHeight; top += 200) {{
                  tree.scrollTop = top; tree.dispatchEvent(new Event('scroll')); await frame();
                  document.querySelectorAll('#tree .node').forEach(n => {{
                    ids.add(n.dataset.entryId);
                    kinds.add([...n.classList].find(c => c.startsWith('kind-')));
                  }});
                }}
                return {{count: ids.size, kinds: [...kinds], status: document.getElementById('tree-status').textContent}};
            }})()")),
            js(&format!("(async () => {{ {FRAME}
                document.querySelector('#filters [data-filter=default]').click();
                const tree = document.getElementById('tree');
                tree.scrollTop = 0; tree.dispatchEvent(new Event('scroll')); await frame();
                const row = document.querySelector('#tree .node[data-pos=\"9\"]');
                const id = row.dataset.entryId, before = window.scrollY;
                row.click(); await frame(); await frame();
                const node = document.getElementById('entry-' + id);
                const r = node ? node.getBoundingClientRect() : null;
                return {{id, found: !!node, top: r && r.top, bottom: r && r.bottom, height: innerHeight,
                        marked: !!node && node.classList.contains('target'), before, after: window.scrollY,
                        status: document.getElementById('tree-status').textContent,
                        active: document.querySelector('#tree .node.active').dataset.entryId}};
            }})()")),
            js("(() => { const s = document.getElementById('search');
                 s.value = 'theme'; s.dispatchEvent(new Event('input')); })()"),
            sleep(400),
            js("({status: document.getElementById('tree-status').textContent,
                 treeMarks: document.querySelectorAll('#tree mark').length,
                 messageMarks: document.querySelectorAll('#messages mark').length})"),
        ],
    );
    clean(&run, &page);
    assert!(shot.exists(), "the screenshot was kept");

    let head = &run.results[1];
    assert_eq!(head["messages"], "88 user, 453 assistant, 373 tool results");
    assert_eq!(head["toolCalls"], "391");
    assert_eq!(head["cost"], "$30.330");
    // The default filter lists what pi 0.73.1's page lists, the leaf marked and counted.
    assert_eq!(head["status"], "720 / 720 shown · 1018 entries");
    assert_eq!(
        head["activeRows"], 1,
        "the tree is scrolled to the active entry"
    );
    let (chunks, rendered) = (
        head["chunks"].as_u64().unwrap(),
        head["rendered"].as_u64().unwrap(),
    );
    assert!(
        rendered >= 1 && rendered < chunks,
        "messages render lazily: {rendered} of {chunks}"
    );

    let user = &run.results[2];
    assert_eq!(user["count"], 88, "{user}");
    assert_eq!(user["kinds"], serde_json::json!(["kind-user"]));
    assert_eq!(user["status"], "– / 88 shown · 1018 entries");

    let click = &run.results[3];
    assert_eq!(click["found"], true, "{click}");
    assert_eq!(click["marked"], true, "{click}");
    assert_eq!(click["active"], click["id"]);
    let top = click["top"].as_f64().unwrap();
    assert!(
        (0.0..60.0).contains(&top),
        "the message is at the top of the view: {click}"
    );
    assert!(
        click["after"].as_f64() > click["before"].as_f64(),
        "{click}"
    );
    assert_eq!(click["status"], "10 / 720 shown · 1018 entries");

    let search = &run.results[6];
    let shown: u64 = search["status"]
        .as_str()
        .unwrap()
        .split(" / ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        shown > 0 && shown < 720,
        "searching narrows the tree: {search}"
    );
    assert!(
        search["treeMarks"].as_u64().unwrap() > 0,
        "matches are highlighted: {search}"
    );
    assert!(search["messageMarks"].as_u64().unwrap() > 0, "{search}");
}

#[test]
fn toggles_keys_folding_and_highlighting() {
    let sandbox = PiSandbox::new();
    let page = export_large(&sandbox);
    let bodies = "(() => { const b = [...document.querySelectorAll('.tool-body')];
        return {count: b.length, hidden: b.filter(x => getComputedStyle(x).display === 'none').length}; })()";
    let key = |k: &str| {
        js(&format!(
            "document.dispatchEvent(new KeyboardEvent('keydown', {{key: '{k}', bubbles: true}}))"
        ))
    };
    let run = run_page(
        &page,
        "",
        &[
            js(bodies),
            js("document.getElementById('toggle-tools').click()"),
            js(bodies),
            key("o"),
            js(bodies),
            js("document.querySelectorAll('#tree .node').length"),
            js("[...document.querySelectorAll('.more')].map(b => b.textContent).slice(0, 3)"),
            js("document.querySelectorAll('#messages .hl-k').length"),
            js("[...document.querySelectorAll('#messages .msg:not(.setting) .meta .time')].every(t => /\\d/.test(t.textContent))"),
            js("document.querySelectorAll('#messages .usage').length"),
            js(&format!("(async () => {{ {FRAME}
                const tree = document.getElementById('tree'); tree.focus();
                const before = document.querySelector('#tree .node.cursor').dataset.pos;
                for (const k of ['ArrowUp', 'ArrowUp', 'ArrowUp']) tree.dispatchEvent(new KeyboardEvent('keydown', {{key: k, bubbles: true}}));
                await frame();
                const cursor = document.querySelector('#tree .node.cursor');
                tree.dispatchEvent(new KeyboardEvent('keydown', {{key: 'Enter', bubbles: true}}));
                await frame();
                return {{before: +before, after: +cursor.dataset.pos, opened: cursor.dataset.entryId,
                        active: document.querySelector('#tree .node.active').dataset.entryId,
                        marked: !!document.querySelector('.target')}};
            }})()")),
        ],
    );
    clean(&run, &page);
    let (shown, hidden, again) = (&run.results[0], &run.results[2], &run.results[4]);
    assert!(shown["count"].as_u64().unwrap() > 0, "{shown}");
    assert_eq!(shown["hidden"], 0, "{shown}");
    assert_eq!(
        hidden["hidden"], hidden["count"],
        "the toggle hides every tool body: {hidden}"
    );
    assert_eq!(again["hidden"], 0, "the O key shows them again: {again}");

    let more = run.results[6].as_array().unwrap();
    assert!(!more.is_empty(), "long output is folded");
    assert!(
        more.iter().all(|m| m.as_str().unwrap().starts_with("… (")
            && m.as_str().unwrap().ends_with(" more lines)")),
        "{more:?}"
    );
    assert!(run.results[7].as_u64().unwrap() > 0, "code is highlighted");
    assert_eq!(run.results[8], true, "every message has its time");
    assert!(
        run.results[9].as_u64().unwrap() > 0,
        "turns show their tokens and cost"
    );
    let keys = &run.results[10];
    assert_eq!(
        keys["after"].as_u64().unwrap() + 3,
        keys["before"].as_u64().unwrap(),
        "{keys}"
    );
    assert_eq!(
        keys["active"], keys["opened"],
        "Enter opens the entry: {keys}"
    );
    assert_eq!(keys["marked"], true);
}

#[test]
fn download_copy_and_print() {
    let sandbox = PiSandbox::new();
    let page = export_large(&sandbox);
    let size = std::fs::metadata(&page).unwrap().len();
    // pi 0.73.1's export of the same session is 1,613,052 bytes.
    assert!(size < 1_613_052, "the page is {size} bytes");
    let run = run_page(
        &page,
        "",
        &[
            js("(async () => {
                let blob = null;
                const create = URL.createObjectURL;
                URL.createObjectURL = b => { blob = b; return create.call(URL, b); };
                document.getElementById('download').click();
                const lines = (await blob.text()).trim().split('\\n').map(l => JSON.parse(l));
                return {count: lines.length, first: lines[0].type, second: lines[1].type,
                        joined: lines.some(l => 'joined' in l)};
            })()"),
            js("(async () => {
                let copied = null;
                Object.defineProperty(navigator, 'clipboard', {value: {writeText: t => { copied = t; return Promise.resolve(); }}});
                const button = document.querySelector('#messages .msg.user .copy');
                button.click();
                await new Promise(r => setTimeout(r, 50));
                return {copied, label: button.textContent};
            })()"),
            devtools("Emulation.setEmulatedMedia", serde_json::json!({"media": "print"})),
            js("({sidebar: getComputedStyle(document.getElementById('sidebar')).display,
                 buttons: getComputedStyle(document.querySelector('.help-bar')).display,
                 background: getComputedStyle(document.body).backgroundColor,
                 toolBody: getComputedStyle(document.querySelector('.tool-body')).display})"),
            js("document.body.classList.add('hide-tools')"),
            js("getComputedStyle(document.querySelector('.tool-body')).display"),
            devtools("Emulation.setEmulatedMedia", serde_json::json!({"media": "screen"})),
            js("({sidebar: getComputedStyle(document.getElementById('sidebar')).display,
                 toolBody: getComputedStyle(document.querySelector('.tool-body')).display})"),
        ],
    );
    clean(&run, &page);
    let download = &run.results[0];
    assert_eq!(
        download["count"], 1019,
        "the header and 1,018 entries: {download}"
    );
    assert_eq!(download["first"], "session");
    assert_eq!(download["second"], "message");
    assert_eq!(
        download["joined"], false,
        "the viewer's own marks are not saved"
    );

    let copy = &run.results[1];
    assert_eq!(copy["copied"], "**User:**\n\n/mode", "{copy}");
    assert_eq!(copy["label"], "copied");

    let print = &run.results[3];
    assert_eq!(print["sidebar"], "none", "{print}");
    assert_eq!(print["buttons"], "none");
    assert_eq!(print["background"], "rgb(255, 255, 255)");
    assert_eq!(print["toolBody"], "block");
    assert_eq!(
        run.results[5], "block",
        "printed, tool output shows even when toggled off"
    );
    let screen = &run.results[7];
    assert_eq!(screen["sidebar"], "flex", "{screen}");
    assert_eq!(screen["toolBody"], "none", "on screen the toggle holds");
}

#[test]
fn the_first_screen_is_drawn_before_the_whole_session_is_unpacked() {
    let sandbox = PiSandbox::new();
    let page = export_large(&sandbox);
    // The same page with its packed session spoiled: what comes before it still shows.
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html.find("type=\"application/gzip;base64\">").unwrap() + 31;
    let end = start + html[start..].find("</script>").unwrap();
    let spoiled = sandbox.project.join("spoiled.html");
    std::fs::write(&spoiled, format!("{}AAAA{}", &html[..start], &html[end..])).unwrap();
    let look = js(
        "({messages: document.getElementById('info-messages').textContent,
        shown: document.querySelectorAll('#messages .msg').length,
        first: document.querySelector('#messages .msg.user').innerText,
        ready: document.body.dataset.ready || null})",
    );
    let run = run_page_loaded(&spoiled, &[sleep(300), look.clone()]);
    let seen = &run.results[1];
    assert_eq!(seen["messages"], "88 user, 453 assistant, 373 tool results");
    assert!(seen["shown"].as_u64().unwrap() >= 10, "{seen}");
    assert!(seen["first"].as_str().unwrap().contains("/mode"), "{seen}");
    assert_eq!(seen["ready"], Value::Null, "the whole session never came");
    assert_eq!(
        run.console_errors.len(),
        1,
        "the failure is reported: {:?}",
        run.console_errors
    );

    // The page as exported gets there.
    let run = run_page_loaded(&page, &[sleep(300), look]);
    assert_eq!(run.results[1]["ready"], "1", "{}", run.results[1]);
    clean(&run, &page);
}

#[test]
fn a_call_id_reused_in_a_later_turn_shows_each_call_with_its_own_result() {
    let sandbox = PiSandbox::new();
    let usage = r#"{"input":1,"output":1,"cacheRead":0,"cacheWrite":0,"totalTokens":2,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}}"#;
    let at = "\"timestamp\":\"2026-01-01T00:00:00.000Z\"";
    let call = |id: &str, parent: &str, command: &str| {
        format!(
            r#"{{"type":"message","id":"{id}","parentId":"{parent}",{at},"message":{{"role":"assistant","content":[{{"type":"toolCall","id":"call_0","name":"bash","arguments":{{"command":"{command}"}}}}],"api":"openai-completions","provider":"mock","model":"m","usage":{usage},"stopReason":"toolUse","timestamp":0}}}}"#
        )
    };
    let result = |id: &str, parent: &str, text: &str| {
        format!(
            r#"{{"type":"message","id":"{id}","parentId":"{parent}",{at},"message":{{"role":"toolResult","toolCallId":"call_0","toolName":"bash","content":[{{"type":"text","text":"{text}"}}],"isError":false,"timestamp":0}}}}"#
        )
    };
    let lines = [
        format!(r#"{{"type":"session","version":3,"id":"s1",{at},"cwd":"/tmp"}}"#),
        format!(
            r#"{{"type":"message","id":"e1","parentId":null,{at},"message":{{"role":"user","content":"go","timestamp":0}}}}"#
        ),
        call("e2", "e1", "echo first"),
        result("e3", "e2", "output of the first call"),
        call("e4", "e3", "echo second"),
        result("e5", "e4", "output of the second call"),
    ];
    let source = sandbox.project.join("reused.jsonl");
    std::fs::write(&source, lines.join("\n") + "\n").unwrap();
    let page = sandbox.project.join("reused.html");
    let out = sandbox.run(
        &["--export", source.to_str().unwrap(), page.to_str().unwrap()],
        None,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = run_page_loaded(
        &page,
        &[
            sleep(300),
            js("[...document.querySelectorAll('#messages .tool')].map(t => t.innerText)"),
        ],
    );
    clean(&run, &page);
    let cards = run.results[1].as_array().unwrap();
    assert_eq!(cards.len(), 2, "{cards:?}");
    let card = |i: usize| cards[i].as_str().unwrap().to_string();
    assert!(
        card(0).contains("echo first") && card(0).contains("output of the first call"),
        "{cards:?}"
    );
    assert!(!card(0).contains("second"), "{cards:?}");
    assert!(
        card(1).contains("echo second") && card(1).contains("output of the second call"),
        "{cards:?}"
    );
}
