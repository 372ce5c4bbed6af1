//! Configuration: paths, settings, context files and the system prompt.

pub mod atomic_file;
pub mod bundled_docs;
pub mod cache_files;
pub mod config_value;
pub mod context_files;
pub mod error;
pub mod json_file;
pub mod luarc;
pub mod paths;
pub mod regular_file;
pub mod schema_check;
pub mod schema_warning;
pub mod settings;
pub mod settings_keys;
pub mod system_prompt;
pub mod trust;
pub mod valid_configs;

pub use config_value::Env;
pub use context_files::ContextFile;
pub use settings::Settings;
