//! Runs the `grep` or `find` tool once over a folder and prints its output, so
//! `scripts/bench.py` can time it against ripgrep and fd.
//!
//! `tools_bench grep PATTERN DIR [LIMIT]` or `tools_bench find GLOB DIR [LIMIT]`.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use pi::agent::tool::{AgentTool, ToolContext};
use pi::tools::{FindTool, GrepTool};
use serde_json::json;

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [tool, pattern, dir, rest @ ..] = args.as_slice() else {
        eprintln!("usage: tools_bench grep|find PATTERN DIR [LIMIT]");
        std::process::exit(2);
    };
    let limit: u64 = rest.first().map_or(1_000_000, |l| l.parse().unwrap());
    let ctx = ToolContext::new(PathBuf::from(dir));
    let call = json!({"pattern": pattern, "limit": limit});
    let out = match tool.as_str() {
        "grep" => GrepTool::new().execute("bench", call, ctx).await,
        "find" => FindTool::new().execute("bench", call, ctx).await,
        other => panic!("unknown tool {other}"),
    }
    .expect("the tool failed");
    println!("{}", out.joined_text());
}
