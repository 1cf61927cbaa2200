//! Replays the fuzz corpus on a stable toolchain: every file of
//! `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/` is fed to the
//! same check the fuzz target runs (`peasant::fuzzing`), so inputs that once
//! crashed a reader stay fixed without `cargo fuzz`.

use std::path::Path;

fn replay(target: &str, check: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut files = 0;
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let data = std::fs::read(&path).unwrap();
            let result = std::panic::catch_unwind(|| check(&data));
            assert!(result.is_ok(), "{} fails its check", path.display());
            files += 1;
        }
    }
    assert!(files > 0, "no corpus for {target} under {}", root.display());
}

#[test]
fn position_text_corpus() {
    replay("position_text", peasant::fuzzing::position_text);
}

#[test]
fn move_text_corpus() {
    replay("move_text", peasant::fuzzing::move_text);
}

#[test]
fn table_bytes_corpus() {
    replay("table_bytes", peasant::fuzzing::table_bytes);
}

#[test]
fn save_file_corpus() {
    replay("save_file", peasant::fuzzing::save_file);
}

#[test]
fn proof_log_corpus() {
    replay("proof_log", peasant::fuzzing::proof_log);
}

#[cfg(feature = "serve")]
#[test]
fn serve_query_corpus() {
    replay("serve_query", peasant::fuzzing::serve_query);
}

#[test]
fn warm_file_corpus() {
    replay("warm_file", peasant::fuzzing::warm_file);
}
