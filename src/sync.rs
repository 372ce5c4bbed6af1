//! Locks that keep working after a panic elsewhere: a poisoned mutex still guards valid
//! data here (every critical section leaves it consistent), so pi goes on with it rather
//! than panicking in turn. Also: work spread over threads at once.

use std::mem::MaybeUninit;
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

/// The slots one thread writes, in order.
pub struct Run<'a, T> {
    slots: &'a mut [MaybeUninit<T>],
    written: usize,
}

impl<T> Run<'_, T> {
    /// Write the next item; `false` (the item dropped) when the run is full.
    pub fn push(&mut self, item: T) -> bool {
        let Some(slot) = self.slots.get_mut(self.written) else {
            return false;
        };
        slot.write(item);
        self.written += 1;
        true
    }

    /// How many slots are left to write.
    pub fn left(&self) -> usize {
        self.slots.len() - self.written
    }
}

impl<T> Drop for Run<'_, T> {
    fn drop(&mut self) {
        for slot in &mut self.slots[..self.written] {
            // SAFETY: the first `written` slots were written by `push`, and a run that
            // is dropped (not forgotten) hands none of them out.
            unsafe { slot.assume_init_drop() };
        }
    }
}

/// A vector of runs of the given lengths, each written by `work` from its input,
/// the first on the calling thread and each other on a thread of its own. `None`
/// when some `work` returns `false`, leaves its run short or panics on a thread of
/// its own (what was written is dropped; a panic of the first goes on, as in
/// [`map_on_threads`]).
pub fn fill_on_threads<I: Send, T: Send>(
    runs: Vec<(I, usize)>,
    work: impl Fn(I, &mut Run<'_, T>) -> bool + Sync,
) -> Option<Vec<T>> {
    let total = runs
        .iter()
        .try_fold(0usize, |sum, (_, len)| sum.checked_add(*len))?;
    let mut vector = Vec::with_capacity(total);
    let mut spare = &mut vector.spare_capacity_mut()[..total];
    let mut jobs = Vec::with_capacity(runs.len());
    for (input, len) in runs {
        let (slots, rest) = spare.split_at_mut(len);
        spare = rest;
        jobs.push((input, Run { slots, written: 0 }));
    }
    let done = map_on_threads(jobs, |(input, mut run)| {
        let whole = work(input, &mut run) && run.left() == 0;
        (whole, run)
    });
    if !done.iter().all(|result| matches!(result, Some((true, _)))) {
        return None;
    }
    for (_, run) in done.into_iter().flatten() {
        std::mem::forget(run);
    }
    // SAFETY: the runs split the first `total` slots among them; every run was
    // written whole (checked above) and forgotten, so each slot holds an item that
    // nothing else owns.
    unsafe { vector.set_len(total) };
    Some(vector)
}

#[cfg(test)]
mod tests {
    use super::{Run, fill_on_threads, map_on_threads};
    use std::sync::Arc;

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

    #[test]
    fn runs_are_written_in_place_and_in_order() {
        let runs = vec![(0, 3), (10, 0), (20, 2), (30, 4)];
        let filled = fill_on_threads(runs, |start, run| {
            let mut n = start;
            while run.left() > 0 {
                run.push(n.to_string());
                n += 1;
            }
            !run.push("one too many".to_string())
        });
        let expected = ["0", "1", "2", "20", "21", "30", "31", "32", "33"];
        assert_eq!(filled.unwrap(), expected);
        assert_eq!(
            fill_on_threads(Vec::<((), usize)>::new(), |_, _: &mut Run<'_, u8>| true),
            Some(vec![])
        );
    }

    #[test]
    fn a_failed_short_or_panicking_run_gives_none_and_drops_what_was_written() {
        let counted = Arc::new(());
        let fill = |fail_at: usize, write: usize| {
            fill_on_threads(vec![(0, 2), (1, 2), (2, 2)], |k, run| {
                assert!(k != fail_at || write != 99, "this run panics");
                let count = if k == fail_at { write } else { 2 };
                for _ in 0..count {
                    run.push(Arc::clone(&counted));
                }
                !(k == fail_at && write == 2)
            })
        };
        assert!(fill(1, 2).is_none(), "a run that says it failed");
        assert!(fill(1, 1).is_none(), "a run left short");
        assert!(fill(2, 99).is_none(), "a run that panics");
        let whole = fill(9, 0).unwrap();
        assert_eq!(whole.len(), 6);
        drop(whole);
        assert_eq!(Arc::strong_count(&counted), 1, "every item dropped once");
    }
}
