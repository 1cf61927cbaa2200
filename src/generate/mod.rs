//! Stage 4, the generator: exact win/draw/loss and distance-to-mate values
//! of every table position of a material class, by backward induction:
//! every move advances a pawn, so positions are valued in layers of
//! advancement, the most advanced first, each from its successors' values
//! (no un-moves and no iteration are needed); classes go lowest material
//! first (a capture only ever leads to a smaller class, whose table is read
//! back from the store).
//!
//! It hands each finished class to the table store (`crate::table`) as one
//! file written under a temporary name and renamed when complete.

pub(crate) mod generator;

pub use crate::memory::{available as available_memory, peak as peak_memory};
pub use generator::{
    captured_classes, generate, has_positions, plan, ClassReport, GenConfig, GenError, GenEvent,
    Target,
};
