//! The suite: every test program but the two that need an external tool
//! (`explorer_browser.rs`, `prove_mpi.rs`, each with its own main), as
//! modules of one program. One program links the library once where
//! thirty would each link it, and its harness runs the tests of every
//! module side by side on all cores, where separate programs run one
//! after another, each waiting for its slowest test. A module's tests
//! are named after it: `cargo test --profile suite --test suite
//! tables_vs_minimax::` runs one module's.

#[path = "../common/mod.rs"]
mod common;
#[path = "../naive/mod.rs"]
mod naive;

mod ab_threads;
mod book;
mod bound_vs_minimax;
mod cli;
mod cli_hardening;
mod dead_vs_minimax;
mod fuzz_corpus;
mod gen_interrupt;
mod narrow_tables;
mod pawnrace_protocol;
mod perft_naive;
mod perft_suite;
mod play;
mod pn_threads;
mod pns_vs_minimax;
mod proof_oracle;
mod prove_cli;
mod prove_log;
mod prove_resume;
mod prove_split;
mod prove_values;
mod race_vs_minimax;
mod resume;
mod serve;
mod solve_profile;
mod solver_vs_minimax;
mod store;
mod tables_vs_minimax;
mod unmoves;
mod value_only_and_lines;
mod write_failures;
