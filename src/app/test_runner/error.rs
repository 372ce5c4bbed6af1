//! Why `pi test` or `pi new extension` could not do what was asked, as facts; the
//! words come from the locale packs, and a Lua error keeps the text Lua gave it (it
//! names the file and line of the test or extension).

use std::fmt;
use std::path::PathBuf;

use crate::config::error::FileError;
use crate::core::error::CoreError;
use crate::i18n::config_words::io_reason;
use crate::t;

/// A test file, or a step of a test, that could not run.
#[derive(Debug)]
pub enum TestRunError {
    /// `pi test` was given a flag it does not know.
    Usage {
        /// The flag.
        flag: String,
    },
    /// The test file cannot be read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The test's own Lua code failed outside a test.
    Lua(mlua::Error),
    /// An extension under test did not load.
    ExtensionLoad {
        /// Its entry file.
        path: PathBuf,
        /// What went wrong, as the extension host reported it (`file:line: message`).
        message: String,
    },
    /// An extension's command failed.
    Command(CoreError),
    /// An extension's shortcut failed.
    Shortcut {
        /// The key.
        key: String,
        /// What went wrong, as the extension host reported it.
        message: String,
    },
}

impl fmt::Display for TestRunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TestRunError::Usage { .. } => f.write_str(&t!("pi.test.usage")),
            TestRunError::Unreadable { path, error } => f.write_str(&t!(
                "pi.error.test.unreadable",
                path = path.display().to_string(),
                reason = io_reason(error)
            )),
            TestRunError::Lua(e) => write!(f, "{e}"),
            TestRunError::ExtensionLoad { message, .. } => f.write_str(message),
            TestRunError::Command(e) => write!(f, "{e}"),
            TestRunError::Shortcut { key, message } => f.write_str(&t!(
                "pi.error.test.shortcut_failed",
                key = key.as_str(),
                error = message.as_str()
            )),
        }
    }
}

impl std::error::Error for TestRunError {}

impl From<mlua::Error> for TestRunError {
    fn from(e: mlua::Error) -> TestRunError {
        TestRunError::Lua(e)
    }
}

/// Why `pi new extension NAME` wrote nothing (or not everything).
#[derive(Debug)]
pub enum ScaffoldError {
    /// A file it would write is already there.
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// A file could not be written.
    Unwritable {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// The editor configuration could not be written.
    Luarc(FileError),
}

impl fmt::Display for ScaffoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            ScaffoldError::Exists { path } => {
                t!("pi.test.exists", path = path.display().to_string())
            }
            ScaffoldError::Unwritable { path, error } => {
                FileError::unwritable(path, error).to_string()
            }
            ScaffoldError::Luarc(e) => e.to_string(),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for ScaffoldError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::scoped::scoped_catalog;

    #[test]
    fn an_unreadable_test_file_is_named_in_the_users_language() {
        let error = TestRunError::Unreadable {
            path: PathBuf::from("/t/a_test.lua"),
            error: std::io::Error::from(std::io::ErrorKind::NotFound),
        };
        let english = {
            let _en = scoped_catalog("en");
            error.to_string()
        };
        let _tw = scoped_catalog("zh-TW");
        let chinese = error.to_string();
        assert_ne!(english, chinese);
        assert!(english.contains("/t/a_test.lua") && chinese.contains("/t/a_test.lua"));
        let exists = ScaffoldError::Exists {
            path: PathBuf::from("/x/greet.lua"),
        };
        assert!(exists.to_string().contains("/x/greet.lua"));
    }
}
