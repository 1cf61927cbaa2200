//! The transposition table both searches keep their knowledge in: buckets
//! of a few slots, each bucket one or two cache lines behind its own spin
//! lock, in an anonymous memory map asked for huge pages. What a slot holds
//! is the search's own business (bounds and a best move for alpha-beta,
//! proof and disproof numbers for proof-number search); the transposition
//! table only finds a key's bucket, locks it and hands its slots over.
//!
//! Probes compare whole keys inside the slots, so a collision of bucket
//! indexes can never give a wrong value.

use super::types::SolveError;
use std::cell::UnsafeCell;
use std::sync::atomic::{
    AtomicU32,
    Ordering::{Acquire, Relaxed, Release},
};

/// Slot arrays whose all-zero bytes are a valid value in which every slot
/// is empty: a fresh transposition table is zeroed memory.
///
/// # Safety
/// Implementors promise that all-zero bytes are a valid value of `Self`.
pub(crate) unsafe trait Zeroed: Copy + Send {}

/// One bucket: its lock and its slots, aligned to a cache line.
#[repr(C, align(64))]
struct Bucket<S> {
    lock: AtomicU32,
    slots: UnsafeCell<S>,
}

// Safety: `slots` is only touched while `lock` is held (`Tt::with`).
unsafe impl<S: Send> Sync for Bucket<S> {}

/// Releases a bucket's lock when dropped, so a panic inside the closure
/// given to [`Tt::with`] unlocks the bucket on its way out.
struct Unlock<'a>(&'a AtomicU32);

impl Drop for Unlock<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.store(0, Release);
    }
}

/// The size in bytes of a bucket of slot arrays `S` (its lock included),
/// a whole number of cache lines.
#[cfg(test)]
pub(crate) const fn bucket_bytes<S>() -> usize {
    std::mem::size_of::<Bucket<S>>()
}

/// A transposition table of `len` buckets of slot arrays `S`.
pub(crate) struct Tt<S> {
    /// Holds the buckets' memory (all zero at first: every slot empty).
    _map: memmap2::MmapMut,
    buckets: *const Bucket<S>,
    len: usize,
}

// Safety: the buckets are shared only through `&Bucket`, whose interior
// mutability is guarded by its lock; the map lives as long as the
// transposition table.
unsafe impl<S: Send> Send for Tt<S> {}
unsafe impl<S: Send> Sync for Tt<S> {}

impl<S: Zeroed> Tt<S> {
    /// As many buckets as fit in `mb` MiB (at least one: `mb = 0` gives a
    /// transposition table of one bucket, for tests of replacement). An
    /// error, not an abort, when the memory cannot be had: more than the
    /// machine has available, or refused by the system.
    pub(crate) fn with_mib(mb: usize) -> Result<Tt<S>, SolveError> {
        let per = std::mem::size_of::<Bucket<S>>();
        let bytes = mb.checked_mul(1 << 20).ok_or(SolveError::Memory {
            mib: mb,
            available_mib: crate::memory::available().map(|b| b >> 20),
        })?;
        Tt::with_buckets((bytes / per).max(1))
    }

    /// A transposition table of `n >= 1` buckets.
    pub(crate) fn with_buckets(n: usize) -> Result<Tt<S>, SolveError> {
        let bytes = n.checked_mul(std::mem::size_of::<Bucket<S>>());
        let available = crate::memory::available();
        let refused = || SolveError::Memory {
            mib: bytes.map_or(usize::MAX, |b| b >> 20),
            available_mib: available.map(|b| b >> 20),
        };
        let bytes = bytes.ok_or_else(refused)?;
        if available.is_some_and(|a| bytes as u64 > a) {
            return Err(refused());
        }
        let mut map = memmap2::MmapMut::map_anon(bytes).map_err(|_| refused())?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let buckets = map.as_mut_ptr() as *const Bucket<S>;
        // A map starts on a page boundary, so every bucket is aligned.
        debug_assert_eq!(buckets as usize % std::mem::align_of::<Bucket<S>>(), 0);
        Ok(Tt {
            _map: map,
            buckets,
            len: n,
        })
    }

    #[inline]
    fn buckets(&self) -> &[Bucket<S>] {
        // Safety: the map holds `len` buckets, page-aligned; all-zero bytes
        // are a valid `Bucket` (unlocked, slots empty, `S: Zeroed`).
        unsafe { std::slice::from_raw_parts(self.buckets, self.len) }
    }

    /// The bucket of `key`: the high half of a mixed hash times the number
    /// of buckets (for a power of two, simply the hash's top bits).
    #[inline]
    fn bucket(&self, key: u128) -> &Bucket<S> {
        let h = ((key as u64) ^ ((key >> 64) as u64).rotate_left(29))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = ((h as u128 * self.len as u128) >> 64) as usize;
        &self.buckets()[i]
    }

    /// Runs `f` on the slots of `key`'s bucket with its lock held. The lock
    /// is held for a few dozen instructions, so waiting spins; it is
    /// released even if `f` panics.
    #[inline]
    pub(crate) fn with<R>(&self, key: u128, f: impl FnOnce(&mut S) -> R) -> R {
        lock(self.bucket(key), f)
    }

    /// Asks the processor to bring `key`'s bucket (every cache line of it)
    /// into the cache, for a probe or store soon after.
    #[inline]
    pub(crate) fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = self.bucket(key) as *const Bucket<S> as *const i8;
            let lines = std::mem::size_of::<Bucket<S>>().div_ceil(64);
            for line in 0..lines {
                // Safety: a prefetch is only a hint and never faults; the
                // addresses lie within the bucket.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64 * line)) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Calls `f` with a copy of every bucket's slots, one bucket at a time
    /// under its lock: no copy of the whole transposition table is made,
    /// which for a transposition table of gigabytes matters.
    pub(crate) fn for_each_bucket(&self, mut f: impl FnMut(&S)) {
        for b in self.buckets() {
            let slots = lock(b, |s| *s);
            f(&slots);
        }
    }
}

#[inline]
fn lock<S, R>(b: &Bucket<S>, f: impl FnOnce(&mut S) -> R) -> R {
    while b
        .lock
        .compare_exchange_weak(0, 1, Acquire, Relaxed)
        .is_err()
    {
        while b.lock.load(Relaxed) != 0 {
            std::hint::spin_loop();
        }
    }
    let _unlock = Unlock(&b.lock);
    // Safety: the lock is ours until `_unlock` drops, so no other
    // reference to the slots exists.
    f(unsafe { &mut *b.slots.get() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Default, PartialEq, Debug)]
    struct Pair([u64; 2]);
    // Safety: two integers; zero is a valid value.
    unsafe impl Zeroed for Pair {}

    #[test]
    fn a_panic_inside_unlocks_the_bucket() {
        let t: Tt<Pair> = Tt::with_buckets(1).unwrap();
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            t.with(7, |_| panic!("a search failed with the bucket locked"))
        }));
        assert!(r.is_err());
        // The lock was released: this would spin for ever otherwise.
        t.with(7, |s| s.0[0] = 5);
        assert_eq!(t.with(7, |s| *s), Pair([5, 0]));
    }

    #[test]
    fn every_key_finds_its_bucket_and_memory_is_refused_cleanly() {
        let t: Tt<Pair> = Tt::with_mib(1).unwrap();
        assert_eq!(t.len, (1 << 20) / 64);
        for k in 0..10_000u128 {
            let key = k.wrapping_mul(0x9E37_79B9_7F4A_7C15_F39C_C060_5CED_C835);
            t.with(key, |s| s.0[0] += 1);
        }
        let mut n = 0;
        t.for_each_bucket(|s| n += s.0[0]);
        assert_eq!(n, 10_000);
        assert!(matches!(
            Tt::<Pair>::with_mib(usize::MAX / 2),
            Err(SolveError::Memory { .. })
        ));
        assert!(matches!(
            Tt::<Pair>::with_mib(1 << 40),
            Err(SolveError::Memory { .. })
        ));
    }
}
