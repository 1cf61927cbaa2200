//! Reading format version 1 (one value byte per position, 64-byte header,
//! CRC-32 trailer), only to convert such files to the current format.

use super::TableError;
use crate::index::material::Material;
use crate::rules::variant::Variant;
use std::path::Path;

/// The value bytes of a version 1 file, after checking its magic, version,
/// that it is the table of `material` on `variant`, and its checksum.
pub fn read_v1_values(
    path: &Path,
    variant: Variant,
    material: Material,
) -> Result<Vec<u8>, TableError> {
    let bytes = std::fs::read(path).map_err(|e| TableError::io(path, e))?;
    let damaged = |why: &str| TableError::Damaged {
        path: path.to_path_buf(),
        why: why.to_string(),
    };
    if bytes.len() < 72 || bytes[0..8] != super::format::MAGIC {
        return Err(damaged("not a peasant table"));
    }
    if u32::from_le_bytes(bytes[8..12].try_into().unwrap()) != 1 {
        return Err(damaged("not a version 1 table"));
    }
    let want = [
        variant.board.width(),
        variant.board.height(),
        super::format::rules_byte(variant.rules),
        material.white,
        material.black,
        1,
    ];
    if bytes[16..22] != want {
        return Err(damaged(
            "a version 1 table of another board, rules or class",
        ));
    }
    let end = bytes.len() - 8;
    let crc = u32::from_le_bytes(bytes[end..end + 4].try_into().unwrap());
    if crc32fast::hash(&bytes[..end]) != crc || bytes[end + 4..] != *b"PEND" {
        return Err(damaged("checksum mismatch"));
    }
    let count = u64::from_le_bytes(bytes[24..32].try_into().unwrap());
    if count != (end - 64) as u64 {
        return Err(damaged("wrong length"));
    }
    Ok(bytes[64..end].to_vec())
}
