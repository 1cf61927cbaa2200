//! `cargo fuzz run position_text`: see `peasant::fuzzing::position_text` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| peasant::fuzzing::position_text(data));
