//! The sandbox in force for this process: the settings (switched live by `/sandbox` and
//! the RPC `set_sandbox` command), the `--yolo` switch, and the private temp folder
//! confined commands get as `TMPDIR`.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use arc_swap::ArcSwap;

use super::error::SandboxError;
use super::mode::{SandboxMode, SandboxSettings};

static CURRENT: LazyLock<ArcSwap<SandboxSettings>> =
    LazyLock::new(|| ArcSwap::from_pointee(SandboxSettings::default()));
static YOLO: AtomicBool = AtomicBool::new(false);
static TEMP: OnceLock<Result<PathBuf, SandboxError>> = OnceLock::new();

/// The sandbox settings in force.
pub fn current() -> Arc<SandboxSettings> {
    CURRENT.load_full()
}

/// Put `settings` in force (callers check them with
/// [`check_support`](super::check_support) first).
pub fn set(settings: SandboxSettings) {
    CURRENT.store(Arc::new(settings));
}

/// The mode in force.
pub fn mode() -> SandboxMode {
    CURRENT.load().mode
}

/// Whether `--yolo` turned permission prompts off.
pub fn yolo() -> bool {
    YOLO.load(Ordering::Relaxed)
}

/// Turn permission prompts off (`--yolo`) or on.
pub fn set_yolo(on: bool) {
    YOLO.store(on, Ordering::Relaxed);
}

/// The private temp folder of this process (created on first use, mode 0700), writable
/// in every confined mode.
pub fn private_temp() -> Result<PathBuf, SandboxError> {
    TEMP.get_or_init(|| {
        use std::os::unix::fs::DirBuilderExt;
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let dir = std::env::temp_dir().join(format!("pi-sandbox-{}-{nanos:x}", std::process::id()));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .map(|()| dir.clone())
            .map_err(|e| SandboxError::TempFolder {
                path: dir.clone(),
                reason: crate::i18n::config_words::io_reason(&e),
            })
    })
    .clone()
}

/// Remove the private temp folder, if one was made (at exit).
pub fn remove_private_temp() {
    if let Some(Ok(dir)) = TEMP.get() {
        let _ = std::fs::remove_dir_all(dir);
    }
}
