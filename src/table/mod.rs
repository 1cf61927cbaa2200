//! Stage 3, the tables: table files (format version 2, `docs/FORMAT.md`)
//! and the [`Tablebase`] that probes them.
//!
//! A file holds one material class: WDL and DTM as two sections of
//! zstd-compressed fixed-size blocks, each with a block index and a checksum
//! per block, a checksum over the header and each section's index, and one
//! over the whole file. Positions that white wins at once ("win in 1": a
//! capture of black's last pawn, a promotion, or a step onto the
//! second-to-last rank under `--seventh-rank-wins`) are "don't care": they
//! store whatever compresses best, and [`wins_at_once`] resolves them when
//! probed. A win/draw/loss-only table (`peasant gen --wdl-only`, value
//! encoding 2) has the WDL section alone: it answers the searches' win/draw/
//! loss probes, and a probe for a distance to mate gets
//! [`TableError::NoDtm`].

pub(crate) mod cache;
pub(crate) mod format;
pub(crate) mod store;
pub(crate) mod v1;
pub(crate) mod verify;

pub use cache::{BlockCache, BlockKey};
pub use format::{
    encode_table, encode_wdl_table, split_values, write_memory_bound, write_table_to,
    write_wdl_table_to, Header, SectionHeader, StoreIndex, WriteOptions, ENCODING_WDL_DTM,
    ENCODING_WDL_ONLY, FORMAT_VERSION, WINDOW_BLOCKS,
};
pub use store::{
    file_name, packed_wdl_bytes, wins_at_once, write_table, write_table_with, write_wdl_table_with,
    DenseTable, Table, TableError, Tablebase, DEFAULT_CACHE_BLOCKS,
};
pub use v1::read_v1_values;
pub use verify::{verify_tables, ClassCheck, VerifyReport};
