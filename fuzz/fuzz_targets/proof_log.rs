//! `cargo fuzz run proof_log`: see `peasant::fuzzing::proof_log` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| peasant::fuzzing::proof_log(data));
