//! Locks that keep working after a panic elsewhere: a poisoned mutex still guards valid
//! data here (every critical section leaves it consistent), so pi goes on with it rather
//! than panicking in turn. Also: work spread over threads at once.

use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

mod fill;
pub use fill::{Run, fill_on_threads};

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

/// `work` done on each of `items` at once: the first on the calling thread, each other on
/// a thread of its own. The results come in the order of the items, `None` for one whose
/// thread panicked.
pub fn map_on_threads<T: Send, R: Send>(
    items: Vec<T>,
    work: impl Fn(T) -> R + Sync,
) -> Vec<Option<R>> {
    let work = &work;
    std::thread::scope(|scope| {
        let mut items = items.into_iter();
        let first = items.next();
        let handles: Vec<_> = items.map(|item| scope.spawn(move || work(item))).collect();
        let mut results = Vec::with_capacity(handles.len() + 1);
        results.extend(first.map(|item| Some(work(item))));
        results.extend(handles.into_iter().map(|handle| handle.join().ok()));
        results
    })
}

#[cfg(test)]
mod tests {
    use super::map_on_threads;

    #[test]
    fn results_keep_the_items_order_and_a_panicking_thread_gives_none() {
        let doubled = map_on_threads(vec![1, 2, 3, 4], |n| n * 2);
        assert_eq!(doubled, vec![Some(2), Some(4), Some(6), Some(8)]);
        let some_fail = map_on_threads(vec![1, 2, 3], |n| {
            assert_ne!(n, 3, "the third item fails");
            n
        });
        assert_eq!(some_fail, vec![Some(1), Some(2), None]);
        assert!(map_on_threads(Vec::<u8>::new(), |n| n).is_empty());
    }
}
