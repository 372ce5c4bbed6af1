use std::sync::Arc;

use super::*;
use crate::agent::conversation::{MessageFacts, MessageSource, Part, StoredMessage};
use crate::ai::types::{AssistantMessage, ContentBlock, UserMessage};

/// Reads messages written one per line in a file.
struct FileLines(PathBuf);

impl MessageSource for FileLines {
    fn read(&self, offset: u64, len: u32) -> Option<Message> {
        let text = std::fs::read(&self.0).ok()?;
        let start = offset as usize;
        serde_json::from_slice(text.get(start..start + len as usize)?).ok()
    }
}

fn user(text: &str) -> Message {
    Message::User(UserMessage {
        timestamp: 1,
        ..UserMessage::text(text)
    })
}

fn answer(text: &str) -> Message {
    let mut a = AssistantMessage::empty("openai-completions", "mock", "m");
    a.content.push(ContentBlock::text(text));
    Message::Assistant(a)
}

fn model() -> Model {
    serde_json::from_value(serde_json::json!({
        "id": "m", "name": "m", "api": "openai-completions", "provider": "mock",
        "baseUrl": "http://x", "reasoning": false, "input": ["text"], "maxTokens": 100
    }))
    .unwrap()
}

/// A session file of `messages`, one per line, and its conversation left in the file.
fn session(dir: &Path, messages: &[Message]) -> (PathBuf, Conversation) {
    let path = dir.join("s.jsonl");
    let text: String = messages
        .iter()
        .map(|m| serde_json::to_string(m).unwrap() + "\n")
        .collect();
    std::fs::write(&path, text).unwrap();
    let all: Vec<usize> = (0..messages.len()).collect();
    let conversation = path_through(&path, &all);
    (path, conversation)
}

/// The conversation of the lines `picks` of `file`, left in the file.
fn path_through(file: &Path, picks: &[usize]) -> Conversation {
    let text = std::fs::read_to_string(file).unwrap();
    let mut places = Vec::new();
    let mut offset = 0;
    for line in text.split_terminator('\n') {
        places.push((offset, line));
        offset += line.len() + 1;
    }
    let parts = picks
        .iter()
        .map(|&i| {
            let (offset, line) = places[i];
            let message: Message = serde_json::from_str(line).unwrap();
            Part::Stored(StoredMessage {
                offset: offset as u64,
                len: line.len() as u32,
                facts: MessageFacts::of(&message),
            })
        })
        .collect();
    Conversation::assemble(parts, Arc::new(FileLines(file.to_path_buf())))
}

fn part(count: usize, bytes: &[u8]) -> WrittenSettled {
    WrittenSettled {
        count,
        bytes: bytes.to_vec(),
        after_tool_result: false,
        tool_history: true,
    }
}

fn key<'a>(model: &'a Model, prompt: Option<&'a str>) -> PartKey<'a> {
    PartKey {
        format: "f/1",
        model,
        system_prompt: prompt,
    }
}

fn sample() -> Vec<Message> {
    vec![
        user("one"),
        answer("ok"),
        user("two"),
        answer("ok"),
        user("three"),
    ]
}

#[test]
fn a_kept_part_matches_the_same_conversation_only() {
    let dir = tempfile::tempdir().unwrap();
    let (file, mut conversation) = session(dir.path(), &sample());
    let store = SettledStore::new(dir.path(), "s-1", &file);
    let m = model();
    let written = part(4, br#"{"role":"user"}"#);
    // A held message among the covered ones (a summary, say) is known by its JSON.
    conversation.prepend(vec![user("summary")]);
    store.save(key(&m, Some("sys")), &conversation, 5, &written);
    let kept = store.load(key(&m, Some("sys")), &conversation);
    assert_eq!(
        kept,
        Some(KeptPart {
            slots: 5,
            written: written.clone()
        })
    );
    assert!(!SettledStore::exists_for(
        dir.path(),
        &dir.path().join("none")
    ));

    // Another system prompt, model, format: not used.
    assert_eq!(store.load(key(&m, Some("other")), &conversation), None);
    let mut other = m.clone();
    other.base_url = "http://y".into();
    assert_eq!(store.load(key(&other, Some("sys")), &conversation), None);
    let mut format = key(&m, Some("sys"));
    format.format = "f/2";
    assert_eq!(store.load(format, &conversation), None);

    // Another held message: not used.
    let mut summary = conversation.clone();
    summary.truncate(0);
    summary.push(user("another summary"));
    summary.extend(conversation.iter().skip(1).map(|m| m.into_owned()));
    assert_eq!(store.load(key(&m, Some("sys")), &summary), None);

    // Nothing after the covered messages: not used.
    let mut short = conversation.clone();
    short.truncate(5);
    assert_eq!(store.load(key(&m, Some("sys")), &short), None);
}

#[test]
fn an_edited_or_other_path_of_the_file_is_not_used() {
    let dir = tempfile::tempdir().unwrap();
    let (file, conversation) = session(dir.path(), &sample());
    let store = SettledStore::new(dir.path(), "s-1", &file);
    let m = model();
    store.save(key(&m, None), &conversation, 4, &part(4, b"[]"));
    assert!(store.load(key(&m, None), &conversation).is_some());

    // The same lengths, another text.
    let text = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, text.replace("\"two\"", "\"owt\"")).unwrap();
    assert_eq!(store.load(key(&m, None), &conversation), None);
    std::fs::write(&file, &text).unwrap();
    assert!(store.load(key(&m, None), &conversation).is_some());

    // Another path through the file: its first messages are other lines.
    let branch = path_through(&file, &[0, 3, 2, 1, 4]);
    assert_eq!(store.load(key(&m, None), &branch), None);
    assert!(
        store
            .load(key(&m, None), &path_through(&file, &[0, 1, 2, 3, 4]))
            .is_some()
    );
}

#[test]
fn a_corrupt_or_old_file_is_ignored() {
    let dir = tempfile::tempdir().unwrap();
    let (file, conversation) = session(dir.path(), &sample());
    let store = SettledStore::new(dir.path(), "s-1", &file);
    let m = model();
    store.save(key(&m, None), &conversation, 4, &part(4, b"[1]"));
    let path = store.path();
    let good = std::fs::read(&path).unwrap();
    for bad in [
        b"not json\n[1]".to_vec(),
        Vec::new(),
        good[..good.len() - 1].to_vec(),
        String::from_utf8(good.clone())
            .unwrap()
            .replacen("\"version\":1", "\"version\":0", 1)
            .into_bytes(),
    ] {
        std::fs::write(&path, &bad).unwrap();
        assert_eq!(store.load(key(&m, None), &conversation), None);
    }
    std::fs::write(&path, &good).unwrap();
    assert!(store.load(key(&m, None), &conversation).is_some());
}

#[test]
fn the_store_stays_within_its_bounds() {
    let dir = tempfile::tempdir().unwrap();
    let (file, conversation) = session(dir.path(), &sample());
    let m = model();
    for n in 0..KEEP + 3 {
        let store = SettledStore::new(dir.path(), &format!("s-{n}"), &file);
        store.save(key(&m, None), &conversation, 4, &part(4, b"[]"));
    }
    let kept = std::fs::read_dir(folder(dir.path()).dir()).unwrap().count();
    assert_eq!(kept, KEEP);

    // A part too large is recorded without coverage: the session is known, nothing used.
    let store = SettledStore::new(dir.path(), "big", &file);
    let big = part(4, &vec![b' '; MAX_BYTES + 1]);
    store.save(key(&m, None), &conversation, 4, &big);
    assert!(std::fs::metadata(store.path()).unwrap().len() < 10_000);
    assert_eq!(store.load(key(&m, None), &conversation), None);
    // … and never replaces a part kept before.
    store.save(key(&m, None), &conversation, 4, &part(4, b"[]"));
    store.save(key(&m, None), &conversation, 4, &big);
    assert!(store.load(key(&m, None), &conversation).is_some());
}

#[cfg(unix)]
#[test]
fn parts_are_private_and_a_part_left_half_written_is_removed() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let (file, conversation) = session(dir.path(), &sample());
    let m = model();
    let folder = folder(dir.path()).dir().to_path_buf();
    std::fs::create_dir_all(&folder).unwrap();
    // One left by a run that stopped long ago, one being written now.
    let stale = folder.join("gone.tmp-1");
    let fresh = folder.join("busy.tmp-2");
    std::fs::write(&stale, b"x").unwrap();
    std::fs::write(&fresh, b"x").unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();
    for n in 0..KEEP + 1 {
        let store = SettledStore::new(dir.path(), &format!("s-{n}"), &file);
        store.save(key(&m, None), &conversation, 4, &part(4, b"[]"));
    }
    assert!(!stale.exists(), "a stale half-written part is removed");
    assert!(fresh.exists(), "a part being written is left alone");
    let store = SettledStore::new(dir.path(), &format!("s-{KEEP}"), &file);
    let mode = std::fs::metadata(store.path())
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
}

#[test]
fn a_session_with_a_kept_part_is_known_by_its_header() {
    let dir = tempfile::tempdir().unwrap();
    let (other, conversation) = session(dir.path(), &sample());
    let file = dir.path().join("header.jsonl");
    std::fs::write(&file, "{\"type\":\"session\",\"id\":\"abc-1\"}\n{}\n").unwrap();
    assert!(!SettledStore::exists_for(dir.path(), &file));
    let store = SettledStore::new(dir.path(), "abc-1", &other);
    store.save(key(&model(), None), &conversation, 4, &part(4, b"[]"));
    assert!(SettledStore::exists_for(dir.path(), &file));
}
