//! Locks that keep working after a panic elsewhere: a poisoned mutex still guards valid
//! data here (every critical section leaves it consistent), so pi goes on with it rather
//! than panicking in turn.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// `lock()` without the poison check.
pub trait LockExt<T> {
    /// Lock, taking over the data even if a previous holder panicked.
    fn locked(&self) -> MutexGuard<'_, T>;
}

impl<T> LockExt<T> for Mutex<T> {
    fn locked(&self) -> MutexGuard<'_, T> {
        self.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Wait on `condvar`, taking over the data even if a previous holder panicked.
pub fn wait<'a, T>(condvar: &Condvar, guard: MutexGuard<'a, T>) -> MutexGuard<'a, T> {
    condvar.wait(guard).unwrap_or_else(PoisonError::into_inner)
}
