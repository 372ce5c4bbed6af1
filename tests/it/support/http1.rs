//! Just enough HTTP/1.1 for the mock server: read one request, name a status.

use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

use super::mock_server::CapturedRequest;

/// The reason phrase for common statuses.
pub fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        529 => "Overloaded",
        _ => "Status",
    }
}

/// Read one HTTP/1.1 request (Content-Length or chunked body).
pub async fn read_request(socket: &mut TcpStream) -> Option<CapturedRequest> {
    let mut buf = Vec::new();
    let mut tmp = [0u8; 8192];
    let head_end = loop {
        if let Some(i) = find(&buf, b"\r\n\r\n") {
            break i;
        }
        let n = socket.read(&mut tmp).await.ok()?;
        if n == 0 || buf.len() > 1 << 20 {
            return None;
        }
        buf.extend_from_slice(&tmp[..n]);
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split_whitespace();
    let method = request_line.next()?.to_string();
    let path = request_line.next()?.to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let get = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    let mut rest = buf[head_end + 4..].to_vec();
    let body = if get("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
        loop {
            if let Some(body) = decode_chunked(&rest) {
                break body;
            }
            let n = socket.read(&mut tmp).await.ok()?;
            if n == 0 {
                return None;
            }
            rest.extend_from_slice(&tmp[..n]);
        }
    } else {
        let len: usize = get("content-length")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        while rest.len() < len {
            let n = socket.read(&mut tmp).await.ok()?;
            if n == 0 {
                return None;
            }
            rest.extend_from_slice(&tmp[..n]);
        }
        rest.truncate(len);
        rest
    };
    let json = serde_json::from_slice(&body).ok();
    Some(CapturedRequest {
        method,
        path,
        headers,
        body,
        json,
    })
}

/// The decoded body once `data` holds a complete chunked encoding.
fn decode_chunked(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        let line_end = pos + find(&data[pos..], b"\r\n")?;
        let size_text = String::from_utf8_lossy(&data[pos..line_end]);
        let size = usize::from_str_radix(size_text.split(';').next()?.trim(), 16).ok()?;
        pos = line_end + 2;
        if size == 0 {
            return Some(out);
        }
        if data.len() < pos + size + 2 {
            return None;
        }
        out.extend_from_slice(&data[pos..pos + size]);
        pos += size + 2;
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
