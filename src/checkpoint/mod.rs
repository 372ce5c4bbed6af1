//! File checkpoints: the workspace as it was before each run of the agent, stored beside
//! the session as content-addressed, chunked, compressed blobs (shared by every session of
//! the folder), so `/rewind` can bring the files back. Exact pre-images for the files the
//! edit and write tools touch; an incremental snapshot of the workspace before shell
//! commands. The user's git repository is never touched.

pub mod apply;
pub mod blobs;
pub mod chunk;
mod packs;
pub mod plan;
mod private_fs;
pub mod prune;
pub mod record;
pub mod scan;
pub mod store;

pub use apply::RestoreReport;
pub use plan::{ChangeKind, FileChange, RestorePlan};
pub use prune::Usage;
pub use record::{Checkpoint, CheckpointKind};
pub use store::CheckpointStore;

#[cfg(test)]
mod store_tests;
