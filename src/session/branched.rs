//! Extracting one path of a session into a new session (`/fork`, `/clone`).

use std::collections::HashSet;
use std::path::PathBuf;

use super::entries::{LabelEntry, SessionEntry};
use super::error::SessionError;
use super::ids::new_entry_id;
use super::layout::session_file_name;
use super::load::render_lines;
use super::manager::{SessionManager, create_file_atomically, new_header};

impl SessionManager {
    /// Replace this session with a new one holding only the path from the
    /// root to `leaf_id` (label entries dropped, then re-created for labels
    /// on that path) and recording the current file as its parent. The new
    /// file is written now if the path holds an assistant message, otherwise
    /// lazily. Returns the new file path (`None` in memory).
    pub fn create_branched_session(
        &mut self,
        leaf_id: &str,
    ) -> Result<Option<PathBuf>, SessionError> {
        let path: Vec<SessionEntry> = self
            .get_branch(Some(leaf_id))
            .into_iter()
            .filter(|entry| !matches!(entry, SessionEntry::Label(_)))
            .cloned()
            .collect();
        if path.is_empty() {
            return Err(SessionError::EntryNotFound {
                id: leaf_id.to_string(),
            });
        }
        let parent_session = self
            .session_file
            .as_ref()
            .map(|file| file.to_string_lossy().into_owned());
        let header = new_header(&self.cwd, parent_session);

        let mut taken: HashSet<String> = path.iter().map(|e| e.id().to_string()).collect();
        let mut labels_to_write = Vec::new();
        let mut parent = path.last().map(|entry| entry.id().to_string());
        for entry in &path {
            let Some(label) = self.labels.get(entry.id()) else {
                continue;
            };
            let id = new_entry_id(|candidate| taken.contains(candidate));
            taken.insert(id.clone());
            labels_to_write.push(SessionEntry::Label(LabelEntry {
                id: id.clone(),
                parent_id: parent.replace(id),
                timestamp: label.timestamp.clone(),
                target_id: entry.id().to_string(),
                label: Some(label.text.clone()),
            }));
        }

        let file = self
            .session_dir
            .as_ref()
            .filter(|_| self.session_file.is_some())
            .map(|dir| dir.join(session_file_name(&header.timestamp, &header.id)));
        let mut entries = path;
        entries.extend(labels_to_write);
        let has_message = entries.iter().any(SessionEntry::is_message);

        if let Some(file) = &file
            && has_message
        {
            let mut content = render_lines(std::slice::from_ref(&header));
            content.push_str(&render_lines(&entries));
            create_file_atomically(file, &content).map_err(|source| SessionError::Write {
                path: file.clone(),
                source,
            })?;
        }
        let on_disk = file.is_some() && has_message;
        self.header = header;
        self.entries_on_disk = if on_disk { entries.len() } else { 0 };
        self.header_on_disk = on_disk;
        self.entries = super::store::EntryStore::held(entries);
        self.has_message = has_message;
        self.session_file = file.clone();
        self.appender = None;
        self.write_error = None;
        self.rebuild_index();
        Ok(file)
    }
}
