//! The recorder and restore end to end on a real folder.

use std::fs;
use std::path::Path;

use super::*;
use crate::config::settings_keys::CheckpointSettings;

fn store(dir: &Path, ws: &Path) -> CheckpointStore {
    CheckpointStore::open(
        &dir.join("sessions"),
        "s1",
        ws,
        CheckpointSettings::default(),
    )
}

/// The turn of the acceptance scenario, done by hand: edit a, write b, then a command.
fn agent_turn(cps: &mut CheckpointStore, ws: &Path) -> Checkpoint {
    cps.begin_run(CheckpointKind::Prompt, Some("u1".into()));
    cps.before_write(&ws.join("a.txt")).unwrap();
    fs::write(ws.join("a.txt"), "a edited\n").unwrap();
    cps.before_write(&ws.join("b.txt")).unwrap();
    fs::write(ws.join("b.txt"), "new b\n").unwrap();
    cps.before_shell().unwrap();
    fs::write(ws.join("c.txt"), "y y\n").unwrap();
    fs::remove_file(ws.join("d.txt")).unwrap();
    fs::create_dir(ws.join("e")).unwrap();
    fs::write(ws.join("e/f"), "z\n").unwrap();
    cps.finish_run().unwrap().expect("the run changed files")
}

fn workspace(dir: &Path) -> std::path::PathBuf {
    let ws = dir.join("ws");
    fs::create_dir_all(&ws).unwrap();
    fs::write(ws.join("a.txt"), "a original\n").unwrap();
    fs::write(ws.join("c.txt"), "x x\n").unwrap();
    fs::write(ws.join("d.txt"), "d\n").unwrap();
    ws
}

#[test]
fn restoring_brings_every_file_back_and_removes_what_the_run_made() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let mut cps = store(dir.path(), &ws);
    let cp = agent_turn(&mut cps, &ws);
    assert_eq!(
        cp.changed_files(),
        vec!["a.txt", "b.txt", "c.txt", "d.txt", "e/f"]
    );
    let plan = cps.plan(&cp.id).unwrap();
    let kinds: Vec<(&str, ChangeKind, bool)> = plan
        .changes
        .iter()
        .map(|c| (c.path.as_str(), c.kind, c.conflict))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("a.txt", ChangeKind::Modify, false),
            ("b.txt", ChangeKind::Delete, false),
            ("c.txt", ChangeKind::Modify, false),
            ("d.txt", ChangeKind::Create, false),
            ("e/f", ChangeKind::Delete, false),
        ]
    );
    let report = cps.apply(&plan, &|_| false).unwrap();
    assert_eq!(report.restored.len(), 5);
    assert_eq!(
        fs::read_to_string(ws.join("a.txt")).unwrap(),
        "a original\n"
    );
    assert_eq!(fs::read_to_string(ws.join("c.txt")).unwrap(), "x x\n");
    assert_eq!(fs::read_to_string(ws.join("d.txt")).unwrap(), "d\n");
    assert!(!ws.join("b.txt").exists());
    assert!(!ws.join("e").exists(), "the folder the run made is gone");
    // Nothing is left to do, and no temporary file stays behind.
    assert!(cps.plan(&cp.id).unwrap().changes.is_empty());
    let names: Vec<String> = fs::read_dir(&ws)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains("pi-restore")), "{names:?}");
    // Reopened, the store knows the checkpoint (and the restore after it).
    let again = store(dir.path(), &ws);
    assert_eq!(again.checkpoints().len(), 2);
    assert_eq!(again.checkpoints()[1].kind, CheckpointKind::Restore);
}

#[test]
fn a_file_the_user_changed_is_a_conflict_kept_unless_overwriting_is_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let mut cps = store(dir.path(), &ws);
    let cp = agent_turn(&mut cps, &ws);
    fs::write(ws.join("a.txt"), "the user's words\n").unwrap();
    let plan = cps.plan(&cp.id).unwrap();
    let conflicts: Vec<&str> = plan.conflicts().map(|c| c.path.as_str()).collect();
    assert_eq!(conflicts, vec!["a.txt"]);
    let report = cps.apply(&plan, &|_| false).unwrap();
    assert_eq!(report.kept, vec!["a.txt"]);
    assert_eq!(
        fs::read_to_string(ws.join("a.txt")).unwrap(),
        "the user's words\n"
    );
    assert_eq!(fs::read_to_string(ws.join("c.txt")).unwrap(), "x x\n");
    // Chosen explicitly, the conflict is overwritten.
    let plan = cps.plan(&cp.id).unwrap();
    assert_eq!(plan.changes.len(), 1);
    cps.apply(&plan, &|p| p == "a.txt").unwrap();
    assert_eq!(
        fs::read_to_string(ws.join("a.txt")).unwrap(),
        "a original\n"
    );
}

#[test]
fn a_run_that_changes_nothing_keeps_no_checkpoint_and_files_are_private() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let mut cps = store(dir.path(), &ws);
    cps.begin_run(CheckpointKind::Prompt, Some("u1".into()));
    cps.before_shell().unwrap();
    assert!(cps.finish_run().unwrap().is_none());
    assert!(cps.checkpoints().is_empty());
    agent_turn(&mut cps, &ws);
    assert_eq!(cps.checkpoints().len(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let root = dir.path().join("sessions/checkpoints");
        for entry in walk(&root) {
            let mode = fs::metadata(&entry).unwrap().permissions().mode() & 0o777;
            let want = if entry.is_dir() { 0o700 } else { 0o600 };
            assert_eq!(mode, want, "{}", entry.display());
        }
    }
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![dir.to_path_buf()];
    for e in fs::read_dir(dir).unwrap().flatten() {
        if e.path().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

#[test]
fn a_restore_interrupted_after_its_journal_is_completed_on_the_next_open() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let mut cps = store(dir.path(), &ws);
    let cp = agent_turn(&mut cps, &ws);
    let plan = cps.plan(&cp.id).unwrap();
    // A journal as a crash would leave it: one staged file not yet renamed.
    let staged = ws.join(".a.txt.pi-restore-x");
    fs::write(&staged, "a original\n").unwrap();
    let journal = serde_json::json!([
        {"op": "rename", "from": staged, "to": ws.join("a.txt")},
        {"op": "remove", "path": ws.join("b.txt"), "stop": ws},
    ]);
    let jdir = dir.path().join("sessions/checkpoints/journals");
    fs::create_dir_all(&jdir).unwrap();
    fs::write(jdir.join("j.json"), journal.to_string()).unwrap();
    assert!(!plan.changes.is_empty());
    let _reopened = store(dir.path(), &ws);
    assert_eq!(
        fs::read_to_string(ws.join("a.txt")).unwrap(),
        "a original\n"
    );
    assert!(!ws.join("b.txt").exists());
    assert!(!staged.exists());
    assert!(fs::read_dir(&jdir).unwrap().next().is_none());
}

#[test]
fn pruning_drops_the_oldest_over_the_limit_and_frees_their_chunks() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let settings = CheckpointSettings {
        max_session_bytes: 3000,
        ..CheckpointSettings::default()
    };
    let mut cps = CheckpointStore::open(&dir.path().join("sessions"), "s1", &ws, settings);
    for i in 0..5u32 {
        cps.begin_run(CheckpointKind::Prompt, Some(format!("u{i}")));
        cps.before_write(&ws.join("big.bin")).unwrap();
        let noise: Vec<u8> = (0..2000u32)
            .map(|j| (j * 7919 + i * 104729).to_le_bytes()[1])
            .collect();
        fs::write(ws.join("big.bin"), noise).unwrap();
        cps.finish_run().unwrap();
    }
    let before = cps.checkpoints().len();
    let removed = cps.prune();
    assert!(removed > 0);
    assert_eq!(cps.checkpoints().len(), before - removed);
    assert_eq!(
        cps.checkpoints().last().unwrap().entry_id.as_deref(),
        Some("u4")
    );
    assert!(cps.usage().session_bytes <= 3000 || cps.checkpoints().len() == 1);
    // The newest checkpoint still restores.
    let id = cps.checkpoints().last().unwrap().id.clone();
    let plan = cps.plan(&id).unwrap();
    cps.apply(&plan, &|_| false).unwrap();
}

#[test]
fn fifty_turns_editing_one_line_of_a_1_mb_file_add_at_most_5_mb() {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path().join("ws");
    fs::create_dir_all(&ws).unwrap();
    // 1 MB of lines that do not repeat (compression alone cannot make it small).
    let mut x: u64 = 88172645463325252;
    let mut lines: Vec<String> = Vec::new();
    let mut size = 0;
    while size < 1 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let line = format!("{:016x} {:016x} {}\n", x, x.rotate_left(17), x % 9973);
        size += line.len();
        lines.push(line);
    }
    let big = ws.join("big.txt");
    fs::write(&big, lines.concat()).unwrap();
    let mut cps = store(dir.path(), &ws);
    let blobs_dir = dir.path().join("sessions/checkpoints");
    let used = || {
        walk(&blobs_dir)
            .iter()
            .filter(|p| p.is_file())
            .map(|p| fs::metadata(p).unwrap().len())
            .sum::<u64>()
    };
    for turn in 0..50 {
        cps.begin_run(CheckpointKind::Prompt, Some(format!("u{turn}")));
        cps.before_write(&big).unwrap();
        let at = (turn * 7919) % lines.len();
        lines[at] = format!("edited in turn {turn}\n");
        fs::write(&big, lines.concat()).unwrap();
        // Half the turns also run a command: a workspace snapshot.
        if turn % 2 == 0 {
            cps.before_shell().unwrap();
        }
        assert!(cps.finish_run().unwrap().is_some());
    }
    let total = used();
    assert!(total <= 5 << 20, "50 turns took {total} bytes");
    // And the first turn still restores byte for byte.
    let first = cps.checkpoints()[0].id.clone();
    let plan = cps.plan(&first).unwrap();
    cps.apply(&plan, &|_| false).unwrap();
    let mut x: u64 = 88172645463325252;
    let mut original = String::new();
    while original.len() < 1 << 20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        original.push_str(&format!(
            "{:016x} {:016x} {}\n",
            x,
            x.rotate_left(17),
            x % 9973
        ));
    }
    assert!(fs::read_to_string(&big).unwrap() == original);
    eprintln!("storage after 50 turns: {total} bytes");
}

#[test]
fn removing_a_session_removes_its_checkpoints_and_only_the_chunks_no_other_uses() {
    let dir = tempfile::tempdir().unwrap();
    let ws = workspace(dir.path());
    let sessions = dir.path().join("sessions");
    let settings = CheckpointSettings::default();
    let mut one = CheckpointStore::open(&sessions, "one", &ws, settings);
    let mut two = CheckpointStore::open(&sessions, "two", &ws, settings);
    for (store, text) in [(&mut one, "only in one\n"), (&mut two, "only in two\n")] {
        store.begin_run(CheckpointKind::Prompt, Some("u".into()));
        store.before_write(&ws.join("a.txt")).unwrap();
        fs::write(ws.join("a.txt"), text).unwrap();
        store.finish_run().unwrap();
    }
    let before = one.usage().folder_bytes;
    prune::remove_session(&sessions, "one");
    assert!(!sessions.join("checkpoints/sessions/one").exists());
    let two = CheckpointStore::open(&sessions, "two", &ws, settings);
    assert!(
        two.usage().folder_bytes < before,
        "the chunk only one used is gone"
    );
    // The other session still restores.
    let id = two.checkpoints()[0].id.clone();
    let mut two = two;
    let plan = two.plan(&id).unwrap();
    two.apply(&plan, &|_| true).unwrap();
    assert_eq!(
        fs::read_to_string(ws.join("a.txt")).unwrap(),
        "only in one\n"
    );
}
