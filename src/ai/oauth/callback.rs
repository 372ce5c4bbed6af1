//! The local HTTP server a browser is redirected to after authorizing:
//! it checks the path and `state`, answers with a small page, and hands the
//! authorization code to the waiting login.

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// Host the callback server listens on.
pub const CALLBACK_HOST: &str = "127.0.0.1";
/// Largest request head read from the browser.
const MAX_REQUEST: usize = 16 * 1024;

/// A running callback server; stops when dropped.
pub struct CallbackServer {
    port: u16,
    code: oneshot::Receiver<String>,
    task: JoinHandle<()>,
}

impl Drop for CallbackServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl CallbackServer {
    /// Listen on `127.0.0.1:<port>` (`0` picks a free port) for
    /// `GET <path>?code=...&state=<expected_state>`.
    pub async fn start(
        port: u16,
        path: &str,
        expected_state: &str,
        provider_name: &str,
    ) -> std::io::Result<CallbackServer> {
        let listener = TcpListener::bind((CALLBACK_HOST, port)).await?;
        let port = listener.local_addr()?.port();
        let (sender, code) = oneshot::channel();
        let expected = Expected {
            path: path.to_string(),
            state: expected_state.to_string(),
            provider_name: provider_name.to_string(),
        };
        let task = tokio::spawn(serve(listener, expected, sender));
        Ok(CallbackServer { port, code, task })
    }

    /// The port actually bound.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Wait for a valid callback; `None` if the server stopped first.
    pub async fn wait_for_code(&mut self) -> Option<String> {
        (&mut self.code).await.ok()
    }
}

struct Expected {
    path: String,
    state: String,
    provider_name: String,
}

async fn serve(listener: TcpListener, expected: Expected, sender: oneshot::Sender<String>) {
    let mut sender = Some(sender);
    while let Ok((mut socket, _)) = listener.accept().await {
        let Some(target) = read_request_target(&mut socket).await else {
            continue;
        };
        let (status, page, code) = judge(&target, &expected);
        let _ = respond(&mut socket, status, &page).await;
        if let Some(code) = code
            && let Some(sender) = sender.take()
        {
            let _ = sender.send(code);
            return;
        }
    }
}

/// Decide the answer to one request target (`/path?query`).
fn judge(target: &str, expected: &Expected) -> (u16, String, Option<String>) {
    let Ok(url) = url::Url::parse(&format!("http://localhost{target}")) else {
        return (400, page("Malformed request.", ""), None);
    };
    if url.path() != expected.path {
        return (404, page("Callback route not found.", ""), None);
    }
    let param = |name: &str| {
        url.query_pairs()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    };
    if let Some(error) = param("error") {
        let what = format!(
            "{} authentication did not complete.",
            expected.provider_name
        );
        return (400, page(&what, &format!("Error: {error}")), None);
    }
    if param("state").as_deref() != Some(expected.state.as_str()) {
        return (400, page("State mismatch.", ""), None);
    }
    match param("code").filter(|c| !c.is_empty()) {
        Some(code) => {
            let done = format!(
                "{} authentication completed. You can close this window.",
                expected.provider_name
            );
            (200, page(&done, ""), Some(code))
        }
        None => (400, page("Missing authorization code.", ""), None),
    }
}

async fn read_request_target(socket: &mut TcpStream) -> Option<String> {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 2048];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(std::time::Duration::from_secs(10), socket.read(&mut chunk))
            .await
            .ok()?
            .ok()?;
        if n == 0 || buf.len() > MAX_REQUEST {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf);
    let mut parts = head.lines().next()?.split_whitespace();
    let (_method, target) = (parts.next()?, parts.next()?);
    Some(target.to_string())
}

async fn respond(socket: &mut TcpStream, status: u16, body: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        404 => "Not Found",
        _ => "Bad Request",
    };
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(response.as_bytes()).await?;
    socket.shutdown().await
}

fn page(title: &str, detail: &str) -> String {
    let escape = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>pi</title></head>\
         <body style=\"font-family:sans-serif;margin:3em\"><h2>{}</h2><p>{}</p></body></html>",
        escape(title),
        escape(detail)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expected() -> Expected {
        Expected {
            path: "/callback".into(),
            state: "s1".into(),
            provider_name: "Test".into(),
        }
    }

    #[test]
    fn judges_callbacks() {
        let e = expected();
        let ok = judge("/callback?code=c1&state=s1", &e);
        assert_eq!((ok.0, ok.2.as_deref()), (200, Some("c1")));
        let mismatch = judge("/callback?code=c1&state=evil", &e);
        assert_eq!((mismatch.0, mismatch.2), (400, None));
        assert!(mismatch.1.contains("State mismatch"));
        assert_eq!(judge("/other?code=c1&state=s1", &e).0, 404);
        let denied = judge("/callback?error=access_denied&state=s1", &e);
        assert!(denied.1.contains("access_denied"));
        assert_eq!(judge("/callback?state=s1", &e).2, None);
    }
}
