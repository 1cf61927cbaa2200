//! `cargo fuzz run table_bytes`: see `peasant::fuzzing::table_bytes` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| peasant::fuzzing::table_bytes(data));
