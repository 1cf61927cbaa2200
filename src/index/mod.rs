//! Stage 2, the index: material classes ([`Material`], "3v2") and the
//! perfect hash ([`Index`]) that numbers every table position of a class,
//! plus the table domain itself: which positions a table holds
//! ([`in_domain`]) and how the value of any other position reduces to
//! values of table positions ([`value`], over a [`TableValues`] source).
//!
//! The generator fills one value per index number; the table store keeps
//! them in that order; the prober turns a position back into its number.

pub(crate) mod domain;
pub(crate) mod hash;
pub(crate) mod material;

pub use domain::{search_one_ply, value, TableValues};
pub use hash::{binomial, black_domain, in_domain, white_domain, Index, IndexStats, WhiteKey};
pub use material::Material;
