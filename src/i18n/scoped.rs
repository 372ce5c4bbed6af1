//! Unit tests that switch locale do it on their own thread only, so tests running in
//! parallel keep seeing the process-wide catalog.

use std::cell::RefCell;
use std::sync::Arc;

use super::Registry;

thread_local! {
    static SCOPED: RefCell<Option<Arc<Registry>>> = const { RefCell::new(None) };
}

/// While alive, this thread translates with its own copy of the built-in catalog.
pub(crate) struct ScopedCatalog(());

impl Drop for ScopedCatalog {
    fn drop(&mut self) {
        SCOPED.with(|s| *s.borrow_mut() = None);
    }
}

/// Give this thread its own catalog set to `locale` until the guard drops.
pub(crate) fn scoped_catalog(locale: &str) -> ScopedCatalog {
    let registry = super::builtin_registry(locale);
    SCOPED.with(|s| *s.borrow_mut() = Some(Arc::new(registry)));
    ScopedCatalog(())
}

/// This thread's catalog, if it has one.
pub(super) fn current() -> Option<Arc<Registry>> {
    SCOPED.with(|s| s.borrow().clone())
}

/// Apply `change` to this thread's catalog; false when it has none.
pub(super) fn update(change: &dyn Fn(&mut Registry)) -> bool {
    SCOPED.with(|s| {
        let mut slot = s.borrow_mut();
        let Some(current) = slot.as_ref() else {
            return false;
        };
        let mut next = super::clone_registry(current);
        change(&mut next);
        *slot = Some(Arc::new(next));
        true
    })
}
