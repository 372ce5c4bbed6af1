//! Run modes: print (`-p`), JSON event stream (`--mode json`) and RPC
//! (`--mode rpc`).

pub mod coalesce;
pub mod lang;
pub mod output_guard;
pub mod print;
pub mod protocol_out;
pub mod rpc;
pub mod stop_signals;
