//! `cargo fuzz run serve_query`: see `peasant::fuzzing::serve_query` for what it checks.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| peasant::fuzzing::serve_query(data));
