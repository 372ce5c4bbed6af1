//! Resuming a session of another folder moves the conversation there (tools' folder,
//! the system prompt built for it, the session file); a session whose folder is gone is
//! refused and nothing changes.

use crate::support::lua_agent::session_with;

use std::path::Path;
use std::sync::Arc;

use pi::ai::types::{AssistantMessage, ContentBlock, Message, UserContent, UserMessage};
use pi::session::SessionManager;

fn stored_session(cwd: &Path, sessions: &Path) -> std::path::PathBuf {
    let mut s = SessionManager::create(cwd, sessions);
    s.append_message(Message::User(UserMessage {
        content: UserContent::Text("hello".into()),
        timestamp: 0,
    }));
    let mut a = AssistantMessage::empty("x", "p", "m");
    a.content.push(ContentBlock::text("hi"));
    s.append_message(Message::Assistant(a));
    s.sync().unwrap();
    s.session_file().unwrap().to_path_buf()
}

#[tokio::test]
async fn resume_moves_to_the_sessions_folder_unless_it_is_gone() {
    let root = tempfile::tempdir().unwrap();
    let (here, there) = (root.path().join("here"), root.path().join("there"));
    std::fs::create_dir_all(&here).unwrap();
    std::fs::create_dir_all(&there).unwrap();
    let gone_file = stored_session(&root.path().join("gone"), &root.path().join("s-gone"));
    let there_file = stored_session(&there, &root.path().join("s-there"));

    let (mut agent, _faux) = session_with(Vec::new(), &here).await;
    agent.prompt_for_cwd = Some(Arc::new(|cwd: &Path| {
        let cwd = cwd.display().to_string();
        Arc::new(move |_: &[_], _: &[_]| format!("working in {cwd}"))
    }));
    let before = agent.session.session_file().map(Path::to_path_buf);

    let refused = agent.resume_session(&gone_file).await.unwrap_err();
    assert!(
        matches!(refused, pi::core::error::CoreError::CwdMissing { .. }),
        "{refused:?}"
    );
    let refused = refused.to_string();
    assert!(
        refused.contains("no longer exists") && refused.contains("gone"),
        "{refused}"
    );
    assert_eq!(agent.config.cwd, here, "still working here");
    assert_eq!(agent.session.session_file().map(Path::to_path_buf), before);

    assert!(agent.resume_session(&there_file).await.unwrap());
    assert_eq!(agent.config.cwd, there);
    assert_eq!(
        agent.state.system_prompt,
        format!("working in {}", there.display())
    );
    assert_eq!(agent.session.session_file(), Some(there_file.as_path()));
    assert_eq!(agent.session.session_dir(), there_file.parent());
    assert_eq!(agent.state.messages.len(), 2);
}
