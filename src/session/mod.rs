//! Session storage: pi's JSONL v3 tree, migrations and context building.
//!
//! A session file holds a header line and one JSON line per entry; entries
//! form a tree through `id`/`parentId`, and the current leaf decides what the
//! model sees ([`build_session_context`], then [`convert_to_llm`]).

mod append;
mod blocks_head;
mod branched;
mod call_head;
pub mod call_label;
pub mod context;
pub mod convert;
pub mod entries;
mod entry_head;
mod entry_names;
pub mod error;
mod head_json;
mod id_index;
pub mod ids;
pub mod index_cache;
pub mod index_file;
mod kept_previews;
pub mod layout;
pub mod list;
pub mod list_stream;
pub mod load;
pub mod manager;
pub mod migrate;
pub mod preview;
pub mod read_ahead;
mod reading;
pub mod search;
pub mod store;
#[cfg(test)]
mod store_tests;
pub mod tree;
mod writer;

pub use crate::config::paths::default_session_dir;
pub use context::{SessionContext, build_session_context};
pub use convert::convert_to_llm;
pub use entries::{CURRENT_SESSION_VERSION, SessionEntry, SessionHeader};
pub use error::SessionError;
pub use list::{
    ResolvedSessionArg, SessionInfo, list_all_sessions, list_sessions, lookup_session_arg,
    resolve_session_arg,
};
pub use manager::SessionManager;
pub use tree::{SessionTree, SessionTreeNode};
