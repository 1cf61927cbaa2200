//! `cargo fuzz run save_file`: see `peasant::fuzzing::save_file` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| peasant::fuzzing::save_file(data));
