//! Session storage: pi's JSONL v3 tree, migrations and context building.
