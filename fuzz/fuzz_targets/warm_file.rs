//! `cargo fuzz run warm_file`: see `peasant::fuzzing::warm_file` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| peasant::fuzzing::warm_file(data));
