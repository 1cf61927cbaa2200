//! Helpers shared by the integration tests that generate tables.

#![allow(dead_code)]

use peasant::{generate, GenConfig, Target, Variant};
use std::path::PathBuf;

/// A fresh, empty directory under the system's temporary directory, unique
/// to this test process and `name`.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("peasant-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Generates every class of `variant` up to `max_pawns` into `temp_dir(name)`.
pub fn gen(variant: Variant, max_pawns: u8, name: &str) -> PathBuf {
    let dir = temp_dir(name);
    let config = GenConfig::new(variant, dir.clone());
    generate(&config, Target::MaxPawns(max_pawns), &|_| {}).unwrap();
    dir
}
