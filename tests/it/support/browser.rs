//! A page opened in headless Chromium through the DevTools protocol
//! (`tests/browser/cdp.py`): JavaScript steps run in order, their results,
//! the console's errors and every request the page made come back.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// What a run of steps saw.
#[derive(Debug)]
pub struct PageRun {
    /// One value per step, in order (`{"error": ...}` for a step that threw).
    pub results: Vec<Value>,
    /// `console.error` calls, uncaught exceptions and the browser's error log.
    pub console_errors: Vec<String>,
    /// The URL of every request, the page's own included.
    pub requests: Vec<String>,
}

impl PageRun {
    /// The result of step `i` as text.
    pub fn text(&self, i: usize) -> String {
        match &self.results[i] {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        }
    }

    /// Requests other than the page's own file and inline `data:` or `blob:` URLs.
    pub fn outside_requests(&self, page: &Path) -> Vec<String> {
        let own = format!("file://{}", page.display());
        self.requests
            .iter()
            .filter(|u| !u.starts_with(&own) && !u.starts_with("data:") && !u.starts_with("blob:"))
            .cloned()
            .collect()
    }
}

/// Fail with a clear message when Chromium is missing.
pub fn require_chromium() {
    let found = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .any(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        });
    assert!(
        found,
        "headless Chromium is needed to check the exported page: install it (Debian: \
         apt-get install chromium; scripts/test.sh does this) and run the tests again"
    );
}

/// Open `page` (a file, with `hash` appended to its address) at 1400x1000, wait until it
/// is drawn, and run `steps`.
pub fn run_page(page: &Path, hash: &str, steps: &[Value]) -> PageRun {
    run(page, hash, steps, true)
}

/// As [`run_page`], without waiting for the page to say it is drawn (after its load event).
pub fn run_page_loaded(page: &Path, steps: &[Value]) -> PageRun {
    run(page, "", steps, false)
}

fn run(page: &Path, hash: &str, steps: &[Value], wait_ready: bool) -> PageRun {
    require_chromium();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser/cdp.py");
    let url = format!("file://{}{hash}", page.display());
    let mut child = Command::new("python3")
        .arg(&script)
        .arg(&url)
        .args(wait_ready.then_some("--wait-ready"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run tests/browser/cdp.py with python3");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(Value::Array(steps.to_vec()).to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "the browser run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("cdp.py prints JSON");
    let strings = |k: &str| -> Vec<String> {
        v[k].as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap_or_default().to_string())
            .collect()
    };
    PageRun {
        results: v["results"].as_array().unwrap().clone(),
        console_errors: strings("console_errors"),
        requests: strings("requests"),
    }
}

/// A step: the JavaScript expression `js`.
pub fn js(js: &str) -> Value {
    Value::String(js.to_string())
}

/// A step that waits `ms` milliseconds (the page's timers and frames run).
pub fn sleep(ms: u64) -> Value {
    serde_json::json!({ "sleep_ms": ms })
}

/// A step that sends the DevTools command `method` with `params` to the page.
pub fn devtools(method: &str, params: Value) -> Value {
    serde_json::json!({ "cdp": method, "params": params })
}

/// A step that saves a screenshot of the page to `path`.
pub fn screenshot(path: &Path) -> Value {
    serde_json::json!({ "screenshot": path.display().to_string() })
}

/// The session data an exported page holds, as JSON text (it is gzip-compressed in base64).
pub fn page_data(html: &str) -> String {
    use base64::Engine;
    use std::io::Read;
    let start = html
        .find("id=\"session-data\"")
        .expect("the page holds the session");
    let start = start + html[start..].find('>').unwrap() + 1;
    let end = start + html[start..].find("</script>").unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(html[start..end].trim())
        .expect("base64");
    let mut json = String::new();
    flate2::read::GzDecoder::new(&bytes[..])
        .read_to_string(&mut json)
        .expect("gzip");
    json
}
