//! Settings for the C library's allocator, made once before anything is allocated.
//!
//! glibc grows its heaps a few kilobytes at a time by default, each step a system call
//! that takes the process's memory-map lock, which page faults on the other threads
//! need too: parsing a 1 MB session on two threads made about 200 of them. A pad of a
//! few megabytes per growth makes that a handful. Pages of the pad are not touched
//! until used, so resident memory does not grow. Setting the pad turns off glibc's
//! moving threshold for serving large blocks from fresh mappings, so that threshold is
//! fixed here at what it would reach for pi's buffers.

/// Bytes each heap grows by beyond what an allocation needs.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const HEAP_GROWTH_PAD: libc::c_int = 4 << 20;

/// Blocks this size and up get a mapping of their own, returned whole when freed.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const OWN_MAPPING_FROM: libc::c_int = 4 << 20;

/// Apply the allocator settings (glibc only; nothing elsewhere).
pub fn tune_allocator() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets allocator parameters; called at start-up, on the main
    // thread, before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, HEAP_GROWTH_PAD);
        libc::mallopt(libc::M_MMAP_THRESHOLD, OWN_MAPPING_FROM);
    }
}
