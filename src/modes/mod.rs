//! Run modes: print (`-p`) and JSON event stream (`--mode json`).

pub mod print;
