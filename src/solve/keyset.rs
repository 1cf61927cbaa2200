//! Sets of position keys ([`crate::rules::position_key`]) that are asked
//! often: the paths a search steers clear of
//! ([`crate::solve::PnSolver::steer_clear_of`]), which every choice of a
//! child asks, and the proof manager's pool of solved entries.

use std::collections::HashSet;

/// A set of position keys, hashed by [`KeyHash`].
pub type KeySet = HashSet<u128, KeyHash>;

/// A hasher for position keys: a key mixed by the 64-bit finalizer of
/// MurmurHash3, where the standard library's SipHash, made to resist
/// chosen keys, took a sixth of an emulation's time in the proof
/// manager's pool of solved entries (a job's end hands it up to
/// `--share-solved` entries, a million and more, most of them there
/// already), and a sixteenth of a rank's search in the paths it steers
/// clear of ([`KeySet`]). Position keys are no one's choice.
#[derive(Clone, Copy, Default)]
pub struct KeyHash;

impl std::hash::BuildHasher for KeyHash {
    type Hasher = KeyHasher;

    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

/// The hasher [`KeyHash`] builds: a `u128` key (or any bytes, a word at
/// a time) folded into 64 bits and mixed.
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .rotate_left(29)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }

    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        x ^= x >> 33;
        x = x.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        x ^ (x >> 33)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    /// The key hash spreads keys that differ in a few bits only,
    /// as position keys do (a side to move in the lowest bit, pawns in
    /// high ones), over the buckets a hash table takes from its low bits
    /// and over the tags it takes from its high ones: a hash that kept
    /// the keys' structure would make a set of keys a list.
    #[test]
    fn the_key_hash_spreads_structured_keys() {
        let keys = (0..1u128 << 16).map(|i| (i & 0xff) << 70 | (i >> 8) << 1 | (i & 1));
        let (mut low, mut high) = (HashSet::new(), HashSet::new());
        for k in keys {
            let h = KeyHash.hash_one(k);
            low.insert(h & 0xffff);
            high.insert(h >> 48);
        }
        // Random hashes of 65,536 keys fill about 63% of 65,536 buckets.
        assert!(
            low.len() > 40_000 && high.len() > 40_000,
            "{} {}",
            low.len(),
            high.len()
        );
    }

    /// Keys that differ in one half only, or by a swap of their halves,
    /// hash apart, and a set finds what it holds.
    #[test]
    fn keys_hash_apart_and_sets_find_them() {
        let keys = [1u128, 1 << 64, (1 << 64) | 1, 2, 2 << 64, u128::MAX];
        let hashes: HashSet<u64> = keys.iter().map(|k| KeyHash.hash_one(k)).collect();
        assert_eq!(hashes.len(), keys.len());
        let set: KeySet = keys[..3].iter().copied().collect();
        assert!(keys[..3].iter().all(|k| set.contains(k)));
        assert!(!keys[3..].iter().any(|k| set.contains(k)));
    }
}
