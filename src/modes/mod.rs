//! Run modes: print and JSON.
