//! `peasant gen --check DIR`: every checksum of every table, and every
//! position against its successors (as Syzygy's `rtbver` does). A damaged
//! file does not stop the check: every file is looked at, and each damaged
//! one is named with what is wrong with it.

use super::{file_name, DenseTable, Table, TableError};
use crate::index::domain::{search_one_ply, stand_in, TableValues};
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
    /// Positions compared with their successors (0 if the values could not
    /// be compared).
    pub positions: u64,
    /// Size of the file in bytes.
    pub file_bytes: u64,
    /// Positions whose stored value differs from the best of their moves.
    pub mismatches: u64,
    /// The first such position, its stored and its recomputed value.
    pub first_mismatch: Option<String>,
    /// What is wrong with the file itself (a checksum, its length, its
    /// header, a value out of range; or it cannot be read), if anything: it
    /// cannot be used. Starts with `DAMAGED:` or `UNREADABLE:` and names
    /// the file.
    pub damage: Option<String>,
    /// Why the values were not compared with their successors although the
    /// file itself is sound: a table they come from is damaged or missing.
    pub unchecked: Option<String>,
    /// Seconds the class's check took.
    pub seconds: f64,
}

impl ClassCheck {
    /// The file is sound and every position agrees with its successors.
    pub fn is_ok(&self) -> bool {
        self.mismatches == 0 && self.damage.is_none() && self.unchecked.is_none()
    }

    /// One line for people: the class, what was found, the file.
    pub fn line(&self) -> String {
        let m = self.material;
        let path = self.path.display();
        if let Some(why) = &self.damage {
            return format!("{m}: {why}");
        }
        if let Some(why) = &self.unchecked {
            return format!(
                "{m}: checksums good, values NOT checked ({why}): {} bytes {path}",
                self.file_bytes
            );
        }
        let verdict = if self.mismatches == 0 {
            "ok"
        } else {
            "WRONG VALUES"
        };
        format!(
            "{m}: {verdict}: {} positions, {} bytes, {} mismatches{} ({:.2} s) {path}",
            self.positions,
            self.file_bytes,
            self.mismatches,
            self.first_mismatch
                .as_deref()
                .map(|s| format!(", first {s}"))
                .unwrap_or_default(),
            self.seconds,
        )
    }
}

/// What checking a directory found, class by class, lowest total first.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// One check per class in the directory, lowest total first.
    pub classes: Vec<ClassCheck>,
}

impl VerifyReport {
    /// No file is damaged, every class was checked and every value agrees.
    pub fn is_ok(&self) -> bool {
        self.classes.iter().all(ClassCheck::is_ok)
    }

    /// The classes whose file is damaged.
    pub fn damaged(&self) -> impl Iterator<Item = &ClassCheck> {
        self.classes.iter().filter(|c| c.damage.is_some())
    }

    /// The classes whose file is sound but whose values could not be
    /// compared with their successors.
    pub fn unchecked(&self) -> impl Iterator<Item = &ClassCheck> {
        self.classes
            .iter()
            .filter(|c| c.damage.is_none() && c.unchecked.is_some())
    }

    /// The classes with values that disagree with their successors.
    pub fn wrong(&self) -> impl Iterator<Item = &ClassCheck> {
        self.classes.iter().filter(|c| c.mismatches > 0)
    }

    /// One line: how many tables, how many intact, damaged, unchecked and
    /// with wrong values, and how many positions were compared.
    pub fn summary(&self) -> String {
        let positions: u64 = self.classes.iter().map(|c| c.positions).sum();
        let mismatches: u64 = self.classes.iter().map(|c| c.mismatches).sum();
        format!(
            "{} tables: {} intact, {} damaged, {} not checked against their successors, {} with wrong values; {positions} positions checked, {mismatches} mismatches",
            self.classes.len(),
            self.classes.iter().filter(|c| c.is_ok()).count(),
            self.damaged().count(),
            self.unchecked().count(),
            self.wrong().count(),
        )
    }
}

/// Dense tables of the classes in memory, as the source of successors'
/// values; damaged classes answer with their damage.
struct Loaded {
    map: HashMap<Material, Arc<DenseTable>>,
    broken: HashMap<Material, (PathBuf, String)>,
    dir: PathBuf,
    variant: Variant,
}

impl Loaded {
    /// The loaded table of `pos`'s class, or why there is none.
    fn table(&self, pos: &Position) -> Result<&DenseTable, TableError> {
        let m = Material::of(pos);
        if let Some(t) = self.map.get(&m) {
            return Ok(t);
        }
        if let Some((path, why)) = self.broken.get(&m) {
            return Err(TableError::Damaged {
                path: path.clone(),
                why: why.clone(),
            });
        }
        Err(TableError::Missing {
            material: m,
            variant: self.variant,
            path: self.dir.join(file_name(self.variant, m)),
        })
    }
}

impl TableValues for Loaded {
    type Error = TableError;

    fn table_value(&self, pos: &Position) -> Result<Value, TableError> {
        self.table(pos)?.get(pos)
    }
}

/// The loaded tables' win, draw or loss only ([`stand_in`] values), to
/// check a win/draw/loss-only table.
struct LoadedWdl<'a>(&'a Loaded);

impl TableValues for LoadedWdl<'_> {
    type Error = TableError;

    fn table_value(&self, pos: &Position) -> Result<Value, TableError> {
        self.0.table(pos)?.get_wdl(pos).map(stand_in)
    }
}

/// What is wrong with a table file, naming it.
fn damage_text(e: &TableError) -> String {
    match e {
        TableError::Damaged { path, why } => format!("DAMAGED: {}: {why}", path.display()),
        TableError::Io { .. } => format!("UNREADABLE: {e}"),
        other => format!("DAMAGED: {other}"),
    }
}

/// Why a class's values could not be compared, naming the table at fault.
fn unchecked_text(e: &TableError) -> String {
    match e {
        TableError::Damaged { path, .. } | TableError::Io { path, .. } => {
            format!("{} is damaged or unreadable", path.display())
        }
        TableError::Missing { path, .. } => format!("{} is missing", path.display()),
        other => other.to_string(),
    }
}

/// Checks every table of `variant` in `dir`: the file's checksums and
/// layout when opened, every block's checksum and range when decompressed,
/// then every position's value against the best of its moves' values (from
/// its class pair's tables and those of one pawn fewer that its captures
/// reach, the only ones held while the pair is checked). `log` gets one line
/// per class ([`ClassCheck::line`]) as it is checked. A damaged file does
/// not stop the check: it is recorded in the report (with what is wrong),
/// and the classes that need its values are recorded as not checked. Only
/// a directory that cannot be read is an error.
pub fn verify_tables(
    dir: &Path,
    variant: Variant,
    log: &dyn Fn(&str),
) -> Result<VerifyReport, TableError> {
    std::fs::read_dir(dir).map_err(|e| TableError::io(dir, e))?;
    let max_total = (white_domain(variant).count() + black_domain(variant).count()) as u8;
    let present: Vec<Material> = Material::up_to(max_total)
        .into_iter()
        .filter(|&m| dir.join(file_name(variant, m)).exists())
        .collect();
    let mut report = VerifyReport::default();
    let mut loaded = Loaded {
        map: HashMap::new(),
        broken: HashMap::new(),
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
        // Class pairs (a class and its colour-flipped partner, whose
        // positions are each other's successors), each checked with only
        // its own tables and those its captures reach held decompressed,
        // as `gen` holds them.
        let mut pairs: Vec<Vec<Material>> = Vec::new();
        for m in present.iter().copied().filter(|m| m.total() == total) {
            match pairs.iter_mut().find(|p| p[0] == m.swapped()) {
                Some(pair) => pair.push(m),
                None => pairs.push(vec![m]),
            }
        }
        for pair in pairs {
            let mut held: Vec<Material> = pair.clone();
            held.extend(
                pair[0]
                    .pair_captures()
                    .into_iter()
                    .filter(|m| present.contains(m)),
            );
            loaded.map.retain(|m, _| held.contains(m));
            for &m in &pair {
                let path = dir.join(file_name(variant, m));
                let len = std::fs::metadata(&path).map(|md| md.len()).unwrap_or(0);
                files.insert(m, (path, len));
            }
            for &m in &held {
                if loaded.map.contains_key(&m) || loaded.broken.contains_key(&m) {
                    continue;
                }
                let path = dir.join(file_name(variant, m));
                match Table::open(&path, variant, m).and_then(|t| t.to_dense()) {
                    Ok(dense) => {
                        loaded.map.insert(m, Arc::new(dense));
                    }
                    Err(e) => {
                        loaded.broken.insert(m, (path, damage_text(&e)));
                    }
                }
            }
            for &m in &pair {
                report
                    .classes
                    .push(check_class(&mut loaded, &files, m, log));
            }
        }
    }
    Ok(report)
}

/// Checks class `m`, whose table and successors' tables are in `loaded`
/// (or named there as broken), logs its line and returns it.
fn check_class(
    loaded: &mut Loaded,
    files: &HashMap<Material, (PathBuf, u64)>,
    m: Material,
    log: &dyn Fn(&str),
) -> ClassCheck {
    let start = std::time::Instant::now();
    let (path, file_bytes) = files[&m].clone();
    let mut check = ClassCheck {
        material: m,
        path: path.clone(),
        positions: 0,
        file_bytes,
        mismatches: 0,
        first_mismatch: None,
        damage: None,
        unchecked: None,
        seconds: 0.0,
    };
    match loaded.map.get(&m).cloned() {
        None => check.damage = Some(loaded.broken[&m].1.clone()),
        Some(table) => match compare(loaded, &table) {
            Ok((mismatches, first)) => {
                check.positions = table.index().len();
                check.mismatches = mismatches;
                check.first_mismatch = first;
            }
            Err(e) if e.path() == path => {
                // The file's own sections disagree with each other.
                check.damage = Some(damage_text(&e));
                loaded.map.remove(&m);
                loaded.broken.insert(m, (path, damage_text(&e)));
            }
            Err(e) => check.unchecked = Some(unchecked_text(&e)),
        },
    }
    check.seconds = start.elapsed().as_secs_f64();
    log(&check.line());
    check
}

/// Every position of `table` against the best of its moves: the number
/// that disagree and the first of them. A win/draw/loss-only table is
/// checked on win, draw or loss; one with distances on its exact values.
fn compare(loaded: &Loaded, table: &DenseTable) -> Result<(u64, Option<String>), TableError> {
    let index = table.index();
    (0..index.len())
        .into_par_iter()
        .try_fold(
            || (0u64, None::<String>),
            |(mut bad, mut first), i| {
                let pos = index.unrank(i);
                let mismatch = if !table.has_dtm() {
                    let stored = table.get_wdl(&pos)?;
                    let expected = search_one_ply(&LoadedWdl(loaded), &pos)?.wdl();
                    (stored != expected)
                        .then(|| format!("{pos}: stored {stored}, moves give {expected}"))
                } else {
                    let stored = table.get(&pos)?;
                    let expected = search_one_ply(loaded, &pos)?;
                    (stored != expected)
                        .then(|| format!("{pos}: stored {stored}, moves give {expected}"))
                };
                if let Some(m) = mismatch {
                    bad += 1;
                    first = first.or(Some(m));
                }
                Ok::<_, TableError>((bad, first))
            },
        )
        .try_reduce(|| (0, None), |a, b| Ok((a.0 + b.0, a.1.or(b.1))))
}
