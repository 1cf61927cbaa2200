//! `peasant gen --check DIR`: every checksum of every table, and every
//! position against its successors (as Syzygy's `rtbver` does).

use super::{file_name, DenseTable, Table, TableError};
use crate::index::domain::{search_one_ply, TableValues};
use crate::index::material::Material;
use crate::index::{black_domain, white_domain};
use crate::rules::position::Position;
use crate::rules::value::Value;
use crate::rules::variant::Variant;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What checking one class found.
#[derive(Clone, Debug)]
pub struct ClassCheck {
    /// The class.
    pub material: Material,
    /// Its table file.
    pub path: PathBuf,
    /// Positions checked: one per number of the class's index.
    pub positions: u64,
    /// Size of the file in bytes.
    pub file_bytes: u64,
    /// Positions whose stored value differs from the best of their moves.
    pub mismatches: u64,
    /// The first such position, its stored and its recomputed value.
    pub first_mismatch: Option<String>,
    /// Seconds the class's check took.
    pub seconds: f64,
}

/// What checking a directory found, class by class, lowest total first.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// One check per class in the directory, lowest total first.
    pub classes: Vec<ClassCheck>,
}

impl VerifyReport {
    /// Whether every position of every class agrees with the best of its moves.
    pub fn is_ok(&self) -> bool {
        self.classes.iter().all(|c| c.mismatches == 0)
    }
}

/// Dense tables of the classes in memory, as the source of successors'
/// values.
struct Loaded {
    map: HashMap<Material, Arc<DenseTable>>,
    dir: PathBuf,
    variant: Variant,
}

impl TableValues for Loaded {
    type Error = TableError;

    fn table_value(&self, pos: &Position) -> Result<Value, TableError> {
        let m = Material::of(pos);
        match self.map.get(&m) {
            Some(t) => t.get(pos),
            None => Err(TableError::Missing {
                material: m,
                variant: self.variant,
                path: self.dir.join(file_name(self.variant, m)),
            }),
        }
    }
}

/// Checks every table of `variant` in `dir`: the file's checksums and
/// layout when opened, every block's checksum and range when decompressed,
/// then every position's value against the best of its moves' values (from
/// the tables of the same total and of one pawn fewer, which must be
/// there). `log` gets one line per class. A damaged or missing table is an
/// error naming the file; values that disagree are counted in the report.
pub fn verify_tables(
    dir: &Path,
    variant: Variant,
    log: &dyn Fn(&str),
) -> Result<VerifyReport, TableError> {
    let max_total = (white_domain(variant).count() + black_domain(variant).count()) as u8;
    let present: Vec<Material> = Material::up_to(max_total)
        .into_iter()
        .filter(|&m| dir.join(file_name(variant, m)).exists())
        .collect();
    let mut report = VerifyReport::default();
    let mut loaded = Loaded {
        map: HashMap::new(),
        dir: dir.to_path_buf(),
        variant,
    };
    let mut files: HashMap<Material, (PathBuf, u64)> = HashMap::new();
    let totals: Vec<u8> = {
        let mut t: Vec<u8> = present.iter().map(|m| m.total()).collect();
        t.dedup();
        t
    };
    for total in totals {
        loaded.map.retain(|m, _| m.total() + 1 >= total);
        let classes: Vec<Material> = present
            .iter()
            .copied()
            .filter(|m| m.total() == total)
            .collect();
        for &m in &classes {
            let path = dir.join(file_name(variant, m));
            let table = Table::open(&path, variant, m)?;
            files.insert(m, (path, table.file_len()));
            loaded.map.insert(m, Arc::new(table.to_dense()?));
        }
        for &m in &classes {
            let start = std::time::Instant::now();
            let table = loaded.map[&m].clone();
            let index = table.index();
            let found = (0..index.len())
                .into_par_iter()
                .try_fold(
                    || (0u64, None::<String>),
                    |(mut bad, mut first), i| {
                        let pos = index.unrank(i);
                        let stored = table.get(&pos)?;
                        let expected = search_one_ply(&loaded, &pos)?;
                        if stored != expected {
                            bad += 1;
                            if first.is_none() {
                                first =
                                    Some(format!("{pos}: stored {stored}, moves give {expected}"));
                            }
                        }
                        Ok::<_, TableError>((bad, first))
                    },
                )
                .try_reduce(|| (0, None), |a, b| Ok((a.0 + b.0, a.1.or(b.1))))?;
            let (path, file_bytes) = files[&m].clone();
            let check = ClassCheck {
                material: m,
                path,
                positions: index.len(),
                file_bytes,
                mismatches: found.0,
                first_mismatch: found.1,
                seconds: start.elapsed().as_secs_f64(),
            };
            log(&format!(
                "{m}: {} positions, {} bytes, {} mismatches{} ({:.2} s) {}",
                check.positions,
                check.file_bytes,
                check.mismatches,
                check
                    .first_mismatch
                    .as_deref()
                    .map(|s| format!(", first {s}"))
                    .unwrap_or_default(),
                check.seconds,
                check.path.display()
            ));
            report.classes.push(check);
        }
    }
    Ok(report)
}
