//! RPC framing: records are split on LF only (a trailing CR is dropped), each
//! record is one JSON value; output is one JSON object per line, flushed at
//! once so clients see every event as it happens.

use crate::sync::LockExt;
use std::io::BufRead;
use std::sync::Mutex;

use serde::Serialize;
use serde_json::{Value, json};
use tokio::sync::mpsc::{UnboundedReceiver, unbounded_channel};

use super::error::RpcError;
use super::ui::UiReplies;

/// One record read from stdin: a parsed JSON object, or the raw line that
/// failed to parse together with the parser's message.
#[derive(Debug)]
pub enum Incoming {
    /// A JSON object.
    Command(Value),
    /// Not a JSON object.
    Invalid {
        /// The line as received.
        line: String,
        /// What was wrong with it.
        error: String,
    },
}

/// Parse one record (without its LF).
pub fn parse_record(mut line: &[u8]) -> Option<Incoming> {
    if let Some(stripped) = line.strip_suffix(b"\r") {
        line = stripped;
    }
    let text = String::from_utf8_lossy(line);
    if text.trim().is_empty() {
        return None;
    }
    Some(match serde_json::from_str::<Value>(&text) {
        Ok(value) if value.is_object() => Incoming::Command(value),
        Ok(_) => Incoming::Invalid {
            line: text.into_owned(),
            error: crate::t!("pi.error.rpc.not_an_object"),
        },
        Err(e) => Incoming::Invalid {
            line: text.into_owned(),
            error: crate::config::error::JsonProblem::from_serde(&e).to_string(),
        },
    })
}

/// Read stdin on its own thread. `extension_ui_response` records go straight
/// to the waiting dialog (an extension may be blocking the session); all
/// other records arrive on the returned channel, which closes at end of input.
pub fn spawn_stdin_reader(replies: UiReplies) -> UnboundedReceiver<Incoming> {
    let (tx, rx) = unbounded_channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        let read = read_records(stdin.lock(), MAX_LINE_BYTES, |incoming| {
            if let Incoming::Command(value) = &incoming
                && super::parse::is_ui_response(value)
            {
                replies.deliver(value);
                return true;
            }
            tx.send(incoming).is_ok()
        });
        if let Err(e) = read {
            *INPUT_FAILED.locked() = Some(e.to_string());
        }
    });
    rx
}

/// The longest record accepted (64 MiB); a longer line is answered with a
/// parse error and never held whole in memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// Split `input` into LF-terminated records and hand each parsed one to
/// `sink` until the input ends, fails, or `sink` returns `false`. A line
/// longer than `max_line` bytes is skipped up to its LF (only its start is
/// kept, for the error and its `id`) and reported as invalid. A read error
/// ends the input like its end, and is returned.
pub fn read_records(
    mut input: impl BufRead,
    max_line: usize,
    mut sink: impl FnMut(Incoming) -> bool,
) -> std::io::Result<()> {
    let mut failure = None;
    let mut buf: Vec<u8> = Vec::new();
    let mut overlong = false;
    loop {
        let (ended, line_done, used) = match input.fill_buf() {
            Ok([]) => (true, true, 0),
            Ok(chunk) => match memchr::memchr(b'\n', chunk) {
                Some(at) => {
                    keep(&mut buf, &chunk[..at], max_line, &mut overlong);
                    (false, true, at + 1)
                }
                None => {
                    keep(&mut buf, chunk, max_line, &mut overlong);
                    (false, false, chunk.len())
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                failure = Some(e);
                (true, true, 0)
            }
        };
        input.consume(used);
        if !line_done {
            continue;
        }
        let record = if overlong {
            Some(Incoming::Invalid {
                line: String::from_utf8_lossy(&buf[..buf.len().min(256)]).into_owned(),
                error: crate::t!("pi.error.rpc.line_too_long", mib = max_line / (1024 * 1024)),
            })
        } else {
            parse_record(&buf)
        };
        buf.clear();
        overlong = false;
        if let Some(record) = record
            && !sink(record)
        {
            return Ok(());
        }
        if ended {
            return failure.map_or(Ok(()), Err);
        }
    }
}

/// Append `part` to the line being read, up to `max_line` bytes.
fn keep(buf: &mut Vec<u8>, part: &[u8], max_line: usize, overlong: &mut bool) {
    if *overlong {
        return;
    }
    if buf.len() + part.len() > max_line {
        *overlong = true;
        let room = max_line.saturating_sub(buf.len()).min(256);
        buf.extend_from_slice(&part[..room.min(part.len())]);
        return;
    }
    buf.extend_from_slice(part);
}

/// Write one JSON line to the protocol's stdout, unbuffered.
pub fn emit<T: Serialize + ?Sized>(value: &T) {
    let Ok(mut line) = serde_json::to_vec(value) else {
        return;
    };
    line.push(b'\n');
    crate::modes::protocol_out::write_record(&line);
}

/// The successful response to `get_messages`, `{"messages": [...]}` as its data,
/// serialised straight to stdout message by message (a long conversation is never
/// built as one value or one buffer); the bytes are those [`success`] would give.
pub fn emit_messages(
    id: Option<&Value>,
    command: &str,
    messages: &crate::agent::conversation::Conversation,
) {
    #[derive(Serialize)]
    struct Data<'a> {
        messages: &'a crate::agent::conversation::Conversation,
    }
    #[derive(Serialize)]
    struct Response<'a> {
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<&'a Value>,
        #[serde(rename = "type")]
        kind: &'static str,
        command: &'a str,
        success: bool,
        data: Data<'a>,
    }
    let response = Response {
        id: id.filter(|id| !id.is_null()),
        kind: "response",
        command,
        success: true,
        data: Data { messages },
    };
    crate::modes::protocol_out::write_record_with(|out| {
        serde_json::to_writer(&mut *out, &response).map_err(std::io::Error::other)?;
        out.write_all(b"\n")
    });
}

/// Why reading stdin failed, when it did (the client sees the end of input
/// either way; the exit code and stderr tell the two apart).
static INPUT_FAILED: Mutex<Option<String>> = Mutex::new(None);

/// The error that ended reading stdin, if reading failed rather than ended.
pub fn input_failure() -> Option<String> {
    INPUT_FAILED.locked().clone()
}

/// A successful response, with `data` when given.
pub fn success(id: Option<&Value>, command: &str, data: Option<Value>) -> Value {
    let mut response = with_id(id);
    response.insert("type".into(), json!("response"));
    response.insert("command".into(), json!(command));
    response.insert("success".into(), json!(true));
    if let Some(data) = data {
        response.insert("data".into(), data);
    }
    Value::Object(response)
}

/// A failed response naming the problem: `error` in the user's language and a stable
/// `code` for programs.
pub fn failure(id: Option<&Value>, command: &str, error: impl Into<RpcError>) -> Value {
    let error = error.into();
    let mut response = with_id(id);
    response.insert("type".into(), json!("response"));
    response.insert("command".into(), json!(command));
    response.insert("success".into(), json!(false));
    response.insert("error".into(), json!(error.to_string()));
    response.insert("code".into(), json!(error.code()));
    Value::Object(response)
}

/// A response object starting with the request's `id` (when it has one).
fn with_id(id: Option<&Value>) -> serde_json::Map<String, Value> {
    let mut response = serde_json::Map::new();
    if let Some(id) = id.filter(|id| !id.is_null()) {
        response.insert("id".into(), id.clone());
    }
    response
}

/// The `"id"` of a line that is not valid JSON, when one can be recognised.
pub fn salvage_id(line: &str) -> Option<Value> {
    let at = line.find("\"id\"")? + 4;
    let rest = line[at..].trim_start().strip_prefix(':')?.trim_start();
    if let Some(body) = rest.strip_prefix('"') {
        let end = body.find('"')?;
        return Some(Value::String(body[..end].to_string()));
    }
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse::<i64>().ok().map(Value::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_split_on_lf_only_and_drop_a_trailing_cr() {
        let Some(Incoming::Command(v)) =
            parse_record(b"{\"type\":\"x\",\"s\":\"a\xe2\x80\xa8b\"}\r")
        else {
            panic!("not parsed")
        };
        assert_eq!(v["s"], "a\u{2028}b");
        assert!(parse_record(b"  ").is_none());
        assert!(matches!(
            parse_record(b"[1]"),
            Some(Incoming::Invalid { .. })
        ));
    }

    #[test]
    fn salvages_ids_from_broken_lines() {
        assert_eq!(
            salvage_id(r#"{"id": "req-7", "type": "get_state""#),
            Some(json!("req-7"))
        );
        assert_eq!(salvage_id(r#"{"id":42,"type"#), Some(json!(42)));
        assert_eq!(salvage_id("not json"), None);
    }
}
