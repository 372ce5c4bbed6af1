//! Keeps `MAPPING.md` in step with the cases in this folder.

use std::path::Path;
use std::process::Command;

#[test]
fn mapping_md_lists_every_case() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("bash")
        .arg(root.join("scripts/conformance-mapping.sh"))
        .arg("--stdout")
        .current_dir(root)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh = String::from_utf8(out.stdout).unwrap();
    let stored = std::fs::read_to_string(root.join("tests/conformance/MAPPING.md")).unwrap();
    assert!(
        fresh == stored,
        "tests/conformance/MAPPING.md is stale: run scripts/conformance-mapping.sh"
    );
}
