//! Why a capability declaration is refused: the key at fault and the kind of fix, worded
//! here through the locale packs.

use std::fmt;
use std::path::PathBuf;

use crate::t;

/// What a declaration entry should have been.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fix {
    /// `capabilities` is not a table.
    Table,
    /// `fs` holds something other than `read` and `write`.
    Fs,
    /// A kind other than `fs`, `exec`, `net` and `env`.
    UnknownKind,
    /// A kind's value is not a list.
    List,
    /// A path scope that is not a non-empty string.
    Path,
    /// An entry that is not a string.
    String,
    /// A program entry that is empty or holds spaces.
    Program,
    /// A host entry that is not a host name or pattern.
    Host,
    /// An environment entry that is not a variable name or prefix.
    Env,
    /// A path starting with a `$` marker pi does not know.
    Marker {
        /// The marker written.
        marker: String,
    },
    /// A glob that does not parse.
    Glob {
        /// The glob parser's description.
        detail: String,
    },
}

impl fmt::Display for Fix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Fix::Table => t!("pi.ext.cap.fix_table"),
            Fix::Fs => t!("pi.ext.cap.fix_fs"),
            Fix::UnknownKind => t!("pi.ext.cap.fix_unknown_kind"),
            Fix::List => t!("pi.ext.cap.fix_list"),
            Fix::Path => t!("pi.ext.cap.fix_path"),
            Fix::String => t!("pi.ext.cap.fix_string"),
            Fix::Program => t!("pi.ext.cap.fix_program"),
            Fix::Host => t!("pi.ext.cap.fix_host"),
            Fix::Env => t!("pi.ext.cap.fix_env"),
            Fix::Marker { marker } => t!("pi.ext.cap.fix_marker", marker = marker.as_str()),
            Fix::Glob { detail } => t!("pi.ext.cap.fix_glob", error = detail.as_str()),
        };
        f.write_str(&text)
    }
}

/// A declaration pi cannot accept: the key at fault and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeclarationError {
    /// Where it is, e.g. `capabilities.fs.read[2]`.
    pub key: String,
    /// What to write instead.
    pub fix: Fix,
    /// The package manifest it is in (`pi.capabilities` there), when not the entry file.
    pub manifest: Option<PathBuf>,
}

impl fmt::Display for DeclarationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = match &self.manifest {
            Some(path) => format!("{} pi.{}", path.display(), self.key),
            None => self.key.clone(),
        };
        f.write_str(&t!(
            "pi.ext.cap.bad_declaration",
            key = key,
            fix = self.fix.to_string()
        ))
    }
}

impl std::error::Error for DeclarationError {}

/// A use an extension's capabilities do not allow, or a declaration pi refuses. Raised
/// back into the extension's Lua code, worded for its author.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CapabilityError {
    /// A use of `capability` on `target` that was not declared.
    Denied {
        /// The extension's display name.
        ext: String,
        /// The capability kind (`fs.read`, `exec`, `net`, `env`).
        capability: String,
        /// The path, program, host or variable.
        target: String,
        /// The declaration that would allow it, e.g. `capabilities = { exec = { "git" } }`.
        example: String,
        /// Whether it happened in the file's top-level code, before the declaration
        /// could be read.
        loading: bool,
    },
    /// Loading native code, which no extension may do.
    NativeCode {
        /// The extension's display name.
        ext: String,
        /// What would have loaded it.
        what: String,
    },
    /// The spec table's capabilities differ from the literal pi read in the file.
    HiddenDeclaration,
    /// The declaration itself is wrong.
    Declaration(DeclarationError),
}

impl fmt::Display for CapabilityError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            CapabilityError::Denied {
                ext,
                capability,
                target,
                example,
                loading,
            } => t!(
                match loading {
                    true => "pi.ext.cap.denied_loading",
                    false => "pi.ext.cap.denied",
                },
                ext = ext.as_str(),
                capability = capability.as_str(),
                target = target.as_str(),
                example = example.as_str()
            ),
            CapabilityError::NativeCode { ext, what } => {
                t!(
                    "pi.ext.cap.native_code",
                    ext = ext.as_str(),
                    what = what.as_str()
                )
            }
            CapabilityError::HiddenDeclaration => t!("pi.ext.cap.hidden_declaration"),
            CapabilityError::Declaration(e) => e.to_string(),
        };
        f.write_str(&text)
    }
}

impl std::error::Error for CapabilityError {}

impl From<CapabilityError> for mlua::Error {
    fn from(e: CapabilityError) -> Self {
        mlua::Error::runtime(e.to_string())
    }
}
