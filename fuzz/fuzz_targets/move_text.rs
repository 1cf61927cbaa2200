//! `cargo fuzz run move_text`: see `peasant::fuzzing::move_text` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| peasant::fuzzing::move_text(data));
