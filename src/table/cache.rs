//! A small cache of decompressed blocks, shared by every table of a
//! [`crate::table::Tablebase`] and by all threads.
//!
//! Sixteen shards, each a mutex over a map; a shard that is full drops its
//! least recently used block. Decompression happens outside the lock, so two
//! threads missing the same block may both decompress it (the second copy is
//! dropped); no thread waits for another's decompression.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

const SHARDS: usize = 16;

/// Names a block: which table (a number unique in the process), which
/// section, which block.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BlockKey {
    /// The table: a number each [`Table`](crate::table::Table) gets when
    /// opened, unique in the process.
    pub table: u64,
    /// The section: 0 for WDL, 1 for DTM.
    pub section: u8,
    /// The block's number within its section.
    pub block: u32,
}

impl BlockKey {
    #[inline]
    fn shard(&self) -> usize {
        let h = (self.table.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            ^ (self.block as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95)
            ^ self.section as u64;
        (h >> 59) as usize % SHARDS
    }
}

struct Shard {
    map: HashMap<BlockKey, (Arc<[u8]>, u64)>,
    clock: u64,
}

/// Decompressed blocks, at most about `capacity_bytes` of them.
pub struct BlockCache {
    shards: Vec<Mutex<Shard>>,
    blocks_per_shard: usize,
    hits: AtomicU64,
    misses: AtomicU64,
}

/// A number for each table opened in this process, for [`BlockKey`].
pub(crate) fn next_table_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl BlockCache {
    /// A cache holding up to `blocks` blocks (at least one per shard).
    pub fn new(blocks: usize) -> BlockCache {
        BlockCache {
            shards: (0..SHARDS)
                .map(|_| {
                    Mutex::new(Shard {
                        map: HashMap::new(),
                        clock: 0,
                    })
                })
                .collect(),
            blocks_per_shard: blocks.div_ceil(SHARDS).max(1),
            hits: AtomicU64::new(0),
            misses: AtomicU64::new(0),
        }
    }

    /// The block named `key`, decompressed by `load` if it is not cached.
    #[inline]
    pub fn get_or_load<E>(
        &self,
        key: BlockKey,
        load: impl FnOnce() -> Result<Vec<u8>, E>,
    ) -> Result<Arc<[u8]>, E> {
        let shard = &self.shards[key.shard()];
        {
            let mut s = shard.lock().unwrap_or_else(|e| e.into_inner());
            s.clock += 1;
            let clock = s.clock;
            if let Some(entry) = s.map.get_mut(&key) {
                entry.1 = clock;
                let block = entry.0.clone();
                drop(s);
                self.hits.fetch_add(1, Ordering::Relaxed);
                return Ok(block);
            }
        }
        self.misses.fetch_add(1, Ordering::Relaxed);
        let block: Arc<[u8]> = load()?.into();
        let mut s = shard.lock().unwrap_or_else(|e| e.into_inner());
        if s.map.len() >= self.blocks_per_shard && !s.map.contains_key(&key) {
            let oldest = s.map.iter().min_by_key(|(_, e)| e.1).map(|(k, _)| *k);
            if let Some(k) = oldest {
                s.map.remove(&k);
            }
        }
        s.clock += 1;
        let clock = s.clock;
        s.map.insert(key, (block.clone(), clock));
        Ok(block)
    }

    /// Forgets every block (for cold-probe measurements).
    pub fn clear(&self) {
        for shard in &self.shards {
            shard.lock().unwrap_or_else(|e| e.into_inner()).map.clear();
        }
    }

    /// Blocks decompressed so far (cache misses).
    pub fn misses(&self) -> u64 {
        self.misses.load(Ordering::Relaxed)
    }

    /// Blocks found in the cache so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Ordering::Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_at_most_its_capacity_and_reloads_evicted_blocks() {
        let cache = BlockCache::new(16);
        let key = |b| BlockKey {
            table: 1,
            section: 0,
            block: b,
        };
        for b in 0..100 {
            let v = cache
                .get_or_load(key(b), || Ok::<_, ()>(vec![b as u8; 4]))
                .unwrap();
            assert_eq!(&v[..], &[b as u8; 4]);
        }
        let held: usize = cache
            .shards
            .iter()
            .map(|s| s.lock().unwrap().map.len())
            .sum();
        assert!(held <= 16, "{held}");
        let v = cache
            .get_or_load(key(3), || Ok::<_, ()>(vec![3; 4]))
            .unwrap();
        assert_eq!(&v[..], &[3; 4]);
    }
}
