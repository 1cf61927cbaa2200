//! The transposition table both searches keep their knowledge in: buckets
//! of a few slots, each bucket one or two cache lines behind its own spin
//! lock, in an anonymous memory map asked for huge pages. What a slot holds
//! is the search's own business (bounds and a best move for alpha-beta,
//! proof and disproof numbers for proof-number search); the transposition
//! table only finds a key's bucket, locks it and hands its slots over.
//!
//! Probes compare whole keys inside the slots, so a collision of bucket
//! indexes can never give a wrong value.
//!
//! A bucket's lock word is also a sequence count: even while the bucket is
//! free, odd while a writer holds it, two more after each write. A
//! [`WordTt`] (slots made of 32-bit words, written only by atomic stores
//! under the lock) lets a reader read a bucket's words without taking its
//! lock and keep what it read if the count was even and unchanged around
//! it (a seqlock): readers then leave the bucket's cache lines shared
//! instead of taking them from every other core as a lock does.
//!
//! Every table also keeps a tag for each slot (up to eight a bucket): a
//! byte of a second hash of the slot's key, a bucket's tags in one word
//! (of four bytes, or eight for more than four slots) of a small array
//! beside the buckets. A probe
//! reads the tags first and the bucket only if one of them is the key's
//! (and then only the slots whose tag it is), so a probe that finds
//! nothing (most of them, in searches that probe every child of every
//! node) touches one word in an array 1/17 of the table's size or less
//! instead of the bucket's one or two cache lines: on a table of
//! gigabytes, a memory access that the processor's caches hold instead of
//! one that misses them (docs/SOLVE.md). The tags only say where not to
//! look: a slot whose tag is the key's may hold another key, which the
//! whole-key compare rejects, and a key's slot always has its tag
//! (whoever writes a slot for a key sets its tag, under the bucket's
//! lock).

use super::types::SolveError;
use std::cell::UnsafeCell;
use std::sync::atomic::{
    fence, AtomicU32, AtomicU64,
    Ordering::{Acquire, Relaxed, Release},
};

/// Slot arrays whose all-zero bytes are a valid value in which every slot
/// is empty: a fresh transposition table is zeroed memory.
///
/// # Safety
/// Implementors promise that all-zero bytes are a valid value of `Self`.
pub(crate) unsafe trait Zeroed: Copy + Send {
    /// The slots a bucket has, each with its tag: up to four keep their
    /// tags in a word of four bytes, up to eight in one of eight.
    const SLOTS: usize = 4;
}

/// One bucket: its lock and its slots, aligned to a cache line.
#[repr(C, align(64))]
struct Bucket<S> {
    lock: AtomicU32,
    slots: UnsafeCell<S>,
}

// Safety: `slots` is only touched while `lock` is held (`Tt::with`).
unsafe impl<S: Send> Sync for Bucket<S> {}

/// Releases a bucket's lock when dropped, so a panic inside the closure
/// given to [`Tt::with`] unlocks the bucket on its way out: stores the
/// next even count.
struct Unlock<'a>(&'a AtomicU32, u32);

impl Drop for Unlock<'_> {
    #[inline]
    fn drop(&mut self) {
        self.0.store(self.1, Release);
    }
}

/// The size in bytes of a bucket of slot arrays `S` (its lock included),
/// a whole number of cache lines.
#[cfg(test)]
pub(crate) const fn bucket_bytes<S>() -> usize {
    std::mem::size_of::<Bucket<S>>()
}

/// A transposition table of `len` buckets of slot arrays `S`, and their
/// tags (see the module's documentation).
pub(crate) struct Tt<S> {
    /// Holds the buckets' memory (all zero at first: every slot empty).
    _map: memmap2::MmapMut,
    buckets: *const Bucket<S>,
    len: usize,
    /// One word a bucket: byte `i` the tag of the key in slot `i`, 0 while
    /// the slot is empty. Written under the bucket's lock, read without.
    tags: memmap2::MmapMut,
}

// Safety: the buckets are shared only through `&Bucket`, whose interior
// mutability is guarded by its lock; the map lives as long as the
// transposition table.
unsafe impl<S: Send> Send for Tt<S> {}
unsafe impl<S: Send> Sync for Tt<S> {}

/// The size from which a new transposition table is weighed against the
/// memory the machine has available ([`Tt::with_buckets`]): 64 MiB.
const CHECKED_FROM: usize = 64 << 20;

impl<S: Zeroed> Tt<S> {
    /// The bytes of a bucket's tags: a word of four or of eight.
    const TAG_BYTES: usize = {
        assert!(S::SLOTS <= 8, "eight slots a bucket at most");
        if S::SLOTS <= 4 {
            4
        } else {
            8
        }
    };

    /// The bytes a bucket takes, its tags included.
    const PER_BUCKET: usize = std::mem::size_of::<Bucket<S>>() + Self::TAG_BYTES;

    /// As many buckets and their tags as fit in `mb` MiB (at least one:
    /// `mb = 0` gives a transposition table of one bucket, for tests of
    /// replacement). An error, not an abort, when the memory cannot be
    /// had: more than the machine has available, or refused by the system.
    pub(crate) fn with_mib(mb: usize) -> Result<Tt<S>, SolveError> {
        let bytes = mb.checked_mul(1 << 20).ok_or_else(|| SolveError::Memory {
            mib: mb,
            available_mib: crate::memory::available().map(|b| b >> 20),
        })?;
        Tt::with_buckets((bytes / Self::PER_BUCKET).max(1))
    }

    /// A transposition table of `n >= 1` buckets.
    pub(crate) fn with_buckets(n: usize) -> Result<Tt<S>, SolveError> {
        // The whole first, so that a table too big is refused as one.
        let bytes = n.checked_mul(Self::PER_BUCKET);
        // A small table is not weighed against the machine: reading
        // /proc/meminfo for each took nearly two thirds of the time of a
        // test that makes a solver of 1 MiB for each of many positions,
        // and no machine this runs on lacks the memory of one.
        let available = match bytes {
            Some(b) if b <= CHECKED_FROM => None,
            _ => crate::memory::available(),
        };
        let refused = || SolveError::Memory {
            mib: bytes.map_or(usize::MAX, |b| b >> 20),
            available_mib: available.map(|a| a >> 20),
        };
        if bytes.is_none_or(|b| available.is_some_and(|a| b as u64 > a)) {
            return Err(refused());
        }
        // Within `bytes`, which did not overflow.
        let mut map = zeroed_map(n * std::mem::size_of::<Bucket<S>>()).ok_or_else(refused)?;
        let buckets = map.as_mut_ptr() as *const Bucket<S>;
        // A map starts on a page boundary, so every bucket is aligned.
        debug_assert_eq!(buckets as usize % std::mem::align_of::<Bucket<S>>(), 0);
        Ok(Tt {
            _map: map,
            buckets,
            len: n,
            tags: zeroed_map(n * Self::TAG_BYTES).ok_or_else(refused)?,
        })
    }

    /// The tags of bucket `i`, as a word of four bytes or eight.
    #[inline]
    fn tags(&self, i: usize) -> Tags<'_> {
        assert!(i < self.len);
        // Safety: the map holds `TAG_BYTES` bytes for each of the `len`
        // buckets, page-aligned; atomic words are laid out as their
        // integers, and the tags are only accessed atomically.
        unsafe {
            if Self::TAG_BYTES == 8 {
                Tags::Eight(&*(self.tags.as_ptr() as *const AtomicU64).add(i))
            } else {
                Tags::Four(&*(self.tags.as_ptr() as *const AtomicU32).add(i))
            }
        }
    }

    /// The slots of bucket `i` that may hold a key of tag `tag`: every
    /// slot whose tag it is, and perhaps a few more (none where no slot
    /// has it).
    #[inline]
    fn tagged(&self, i: usize, tag: u8) -> Candidates {
        // A zero lane where the tags are xored with the tag in every lane:
        // its top bit is set below (a borrow out of a zero lane can also
        // mark the lane above it, a slot looked at for nothing).
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        let marks = match self.tags(i) {
            Tags::Four(t) => {
                let x = t.load(Relaxed) ^ (u32::from(tag) * ONES as u32);
                u64::from(x.wrapping_sub(ONES as u32) & !x & HIGHS as u32)
            }
            Tags::Eight(t) => {
                let x = t.load(Relaxed) ^ (u64::from(tag) * ONES);
                x.wrapping_sub(ONES) & !x & HIGHS
            }
        };
        Candidates { marks }
    }

    /// Gives slot `slot` of bucket `i` the tag `tag`; only under the
    /// bucket's lock (writers of a bucket write its tags one at a time),
    /// after the slot's key.
    #[inline]
    fn set_tag_at(&self, i: usize, slot: usize, tag: u8) {
        assert!(slot < S::SLOTS, "a slot of the bucket");
        let shift = 8 * slot as u32;
        match self.tags(i) {
            Tags::Four(t) => {
                let old = t.load(Relaxed);
                t.store(old & !(0xff << shift) | u32::from(tag) << shift, Release);
            }
            Tags::Eight(t) => {
                let old = t.load(Relaxed);
                t.store(old & !(0xff << shift) | u64::from(tag) << shift, Release);
            }
        }
    }

    /// Runs `f` on the slots of `key`'s bucket with its lock held, or
    /// gives `None` without touching the bucket where no slot's tag is
    /// `key`'s (then no slot holds `key`).
    #[inline]
    pub(crate) fn probe<R>(&self, key: u128, f: impl FnOnce(&S) -> R) -> Option<R> {
        let (i, tag) = self.place(key);
        self.tagged(i, tag)
            .any()
            .then(|| lock(&self.buckets()[i], |s| f(s)))
    }

    /// Runs `f` on the slots of `key`'s bucket with its lock held; where
    /// `f` says it put `key` in a slot (its index), gives that slot `key`'s
    /// tag.
    #[inline]
    pub(crate) fn store(&self, key: u128, f: impl FnOnce(&mut S) -> Option<usize>) {
        let (i, tag) = self.place(key);
        lock(&self.buckets()[i], |s| {
            if let Some(slot) = f(s) {
                self.set_tag_at(i, slot, tag);
            }
        })
    }

    #[inline]
    fn buckets(&self) -> &[Bucket<S>] {
        // Safety: the map holds `len` buckets, page-aligned; all-zero bytes
        // are a valid `Bucket` (unlocked, slots empty, `S: Zeroed`).
        unsafe { std::slice::from_raw_parts(self.buckets, self.len) }
    }

    /// The bucket of `key` ([`Tt::place`]).
    #[inline]
    fn bucket(&self, key: u128) -> &Bucket<S> {
        &self.buckets()[self.place(key).0]
    }

    /// Where `key` goes: its bucket's index, the high half of a mixed hash
    /// times the number of buckets (for a power of two, simply the hash's
    /// top bits), and its tag, the top byte of a second hash that mixes
    /// the key's halves the other way round (so that keys of one bucket
    /// seldom share it, which the low bits of the first would not give:
    /// they depend on a few ranks only), never 0 (an empty slot's tag).
    #[inline]
    fn place(&self, key: u128) -> (usize, u8) {
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let h = (lo ^ hi.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let i = ((h as u128 * self.len as u128) >> 64) as usize;
        let t = (hi ^ lo.rotate_left(32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (i, ((t >> 56) as u8).max(1))
    }

    /// Runs `f` on the slots of `key`'s bucket with its lock held, tags
    /// aside (for tests of the lock). The lock is held for a few dozen
    /// instructions, so waiting spins; it is released even if `f` panics.
    #[cfg(test)]
    pub(crate) fn with<R>(&self, key: u128, f: impl FnOnce(&mut S) -> R) -> R {
        lock(self.bucket(key), f)
    }

    /// Asks the processor to bring `key`'s tags into the cache, for a
    /// probe soon after.
    #[inline]
    pub(crate) fn prefetch(&self, key: u128) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let p = match self.tags(self.place(key).0) {
                Tags::Four(t) => t as *const AtomicU32 as *const i8,
                Tags::Eight(t) => t as *const AtomicU64 as *const i8,
            };
            // Safety: a prefetch is only a hint and never faults.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Asks the processor to bring `key`'s bucket (every cache line of it)
    /// into the cache, for a store later.
    #[inline]
    pub(crate) fn prefetch_bucket(&self, key: u128) {
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

/// A bucket's tags: a word of four bytes, or one of eight for buckets of
/// more than four slots.
enum Tags<'a> {
    Four(&'a AtomicU32),
    Eight(&'a AtomicU64),
}

/// An anonymous map of `bytes` zero bytes, asked for huge pages; `None`
/// where the system refuses it.
fn zeroed_map(bytes: usize) -> Option<memmap2::MmapMut> {
    let map = memmap2::MmapMut::map_anon(bytes).ok()?;
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    Some(map)
}

/// Takes `b`'s lock (its count from even to odd), runs `f` on the
/// bucket's slots and releases the lock (the count two more than it
/// was), also if `f` panics.
#[inline]
fn locked<S, R>(b: &Bucket<S>, f: impl FnOnce(*mut S) -> R) -> R {
    let mut v = b.lock.load(Relaxed);
    loop {
        if v & 1 == 0 {
            match b
                .lock
                .compare_exchange_weak(v, v.wrapping_add(1), Acquire, Relaxed)
            {
                Ok(_) => break,
                Err(now) => v = now,
            }
        } else {
            std::hint::spin_loop();
            v = b.lock.load(Relaxed);
        }
    }
    let _unlock = Unlock(&b.lock, v.wrapping_add(2));
    f(b.slots.get())
}

#[inline]
fn lock<S, R>(b: &Bucket<S>, f: impl FnOnce(&mut S) -> R) -> R {
    // Safety: the lock is ours while `f` runs, and a `Tt` touches its
    // slots only under the lock, so no other reference to them exists.
    locked(b, |s| f(unsafe { &mut *s }))
}

/// Slots made of 32-bit words alone: a whole number of them, no padding,
/// every value of the words a valid value (all zero an empty slot).
///
/// # Safety
/// Implementors promise the above.
pub(crate) unsafe trait Words: Copy + Send {
    /// The slot's size in words.
    const WORDS: usize = {
        assert!(std::mem::size_of::<Self>().is_multiple_of(4) && std::mem::align_of::<Self>() == 4);
        std::mem::size_of::<Self>() / 4
    };
}

/// The slots of one bucket of a [`WordTt`] as a reader sees them: words
/// read one at a time by atomic loads, which another thread may be
/// changing unless the reader holds the lock ([`WordTt::read`] keeps only
/// what a consistent read found).
#[derive(Clone, Copy)]
pub(crate) struct Slots<'a, T, const N: usize> {
    words: *const AtomicU32,
    candidates: Candidates,
    _slots: std::marker::PhantomData<&'a [T; N]>,
}

impl<'a, T: Words, const N: usize> Slots<'a, T, N> {
    fn of(slots: *mut [T; N], candidates: Candidates) -> Slots<'a, T, N> {
        Slots {
            words: slots as *const AtomicU32,
            candidates,
            _slots: std::marker::PhantomData,
        }
    }

    /// The entries (by their tags' places, `Zeroed::SLOTS` in all) whose
    /// tag was the key's when the read began: every entry of the key
    /// among them, and perhaps a few of other keys.
    #[inline]
    pub(crate) fn candidates(&self) -> Candidates {
        self.candidates
    }

    /// Word `w` of slot `i`.
    #[inline]
    pub(crate) fn word(&self, i: usize, w: usize) -> u32 {
        assert!(i < N && w < T::WORDS);
        // Safety: within the slots (checked above), which live as long as
        // the transposition table this borrows; `AtomicU32` is laid out as
        // `u32`, and the slots' words are only written atomically.
        unsafe { (*self.words.add(i * T::WORDS + w)).load(Relaxed) }
    }
}

/// The entries of a bucket (by their tags' places) that may hold a key:
/// an iterator over their indexes, lowest first.
#[derive(Clone, Copy)]
pub(crate) struct Candidates {
    /// The top bit of each tag's byte that matched.
    marks: u64,
}

impl Candidates {
    /// Whether there is any.
    #[inline]
    pub(crate) fn any(&self) -> bool {
        self.marks != 0
    }
}

impl Iterator for Candidates {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        (self.marks != 0).then(|| {
            let bit = self.marks.trailing_zeros();
            self.marks &= self.marks - 1;
            (bit / 8) as usize
        })
    }
}

/// Writes the words of a bucket of a [`WordTt`] whose lock the writer
/// holds ([`WordTt::update`]), each by an atomic store.
pub(crate) struct Writer<'a, T, const N: usize> {
    words: *const AtomicU32,
    candidates: Candidates,
    _slots: std::marker::PhantomData<&'a mut [T; N]>,
}

impl<T: Words, const N: usize> Writer<'_, T, N> {
    /// The entries (by their tags' places) that may hold the key being
    /// written: every entry of the key among them, and perhaps a few of
    /// other keys (the tags are read under the lock).
    #[inline]
    pub(crate) fn candidates(&self) -> Candidates {
        self.candidates
    }

    /// Makes word `w` of slot `i` `x`.
    #[inline]
    pub(crate) fn set(&self, i: usize, w: usize, x: u32) {
        assert!(i < N && w < T::WORDS);
        // Safety: within the bucket's slots (checked above), locked by
        // the caller of `update` for as long as this lives; `AtomicU32`
        // is laid out as `u32`.
        unsafe { (*self.words.add(i * T::WORDS + w)).store(x, Relaxed) }
    }

    /// Makes slot `i`, which was `old`, `new`: writes the words that
    /// differ (for the tests, which write whole slots).
    #[cfg(test)]
    pub(crate) fn slot(&self, i: usize, old: &T, new: &T) {
        let (o, n) = (old as *const T as *const u32, new as *const T as *const u32);
        for w in 0..T::WORDS {
            // Safety: `T` is `T::WORDS` words (`Words`).
            let (x, y) = unsafe { (o.add(w).read(), n.add(w).read()) };
            if x != y {
                self.set(i, w, y);
            }
        }
    }
}

/// A transposition table of buckets of `N` slots `T` whose words are only
/// ever written by atomic stores, under the bucket's lock, so that a
/// reader may read a bucket without its lock ([`WordTt::read`]) while a
/// writer holds it: what it read is kept only if the bucket's sequence
/// count shows that no writer came between.
pub(crate) struct WordTt<T, const N: usize> {
    tt: Tt<[T; N]>,
}

impl<T: Words, const N: usize> WordTt<T, N>
where
    [T; N]: Zeroed,
{
    /// Each of the bucket's slots has its tag.
    const TAGS_FIT: () = assert!(N <= <[T; N]>::SLOTS, "a tag for every slot");

    /// As [`Tt::with_mib`].
    pub(crate) fn with_mib(mb: usize) -> Result<WordTt<T, N>, SolveError> {
        let () = Self::TAGS_FIT;
        Ok(WordTt {
            tt: Tt::with_mib(mb)?,
        })
    }

    /// A transposition table of `n >= 1` buckets.
    #[cfg(test)]
    fn with_buckets(n: usize) -> Result<WordTt<T, N>, SolveError> {
        Ok(WordTt {
            tt: Tt::with_buckets(n)?,
        })
    }

    /// Reads `key`'s bucket through `f`, which reads the words it needs
    /// ([`Slots::word`]) and says what it found; `None` without reading the
    /// bucket where no slot's tag is `key`'s (then no slot holds `key`: a
    /// slot's key and tag are written together under the lock, the tag
    /// last, and a reader that does not see a new tag yet is one that read
    /// before the write). With `lock_free`, `f`
    /// reads without the bucket's lock, and its finding is kept if the
    /// bucket's count was even and unchanged around it (else `f` reads
    /// again; after a few tries, under the lock). Without, under the lock,
    /// which takes the bucket's first cache line from whichever core has
    /// it but leaves it in this core's cache for the store that often
    /// follows.
    #[inline]
    pub(crate) fn read<R>(
        &self,
        key: u128,
        lock_free: bool,
        f: impl Fn(Slots<'_, T, N>) -> R,
    ) -> Option<R> {
        let (i, tag) = self.tt.place(key);
        let candidates = self.tt.tagged(i, tag);
        if !candidates.any() {
            return None;
        }
        let b = &self.tt.buckets()[i];
        let slots = Slots::of(b.slots.get(), candidates);
        if lock_free {
            for _ in 0..4 {
                let v = b.lock.load(Acquire);
                if v & 1 == 0 {
                    let r = f(slots);
                    fence(Acquire);
                    if b.lock.load(Relaxed) == v {
                        return Some(r);
                    }
                }
                std::hint::spin_loop();
            }
        }
        Some(locked(b, |_| f(slots)))
    }

    /// Runs `f` on a copy of `key`'s bucket with its lock held; `f` writes
    /// the words it changes through the [`Writer`] (atomic stores, after a
    /// release fence: a reader that sees any of them also sees the odd
    /// count or a later one) and gives the index of the tag to make
    /// `key`'s, if it wrote an entry of `key` (a slot's own index where a
    /// slot is one entry; a slot `T` may hold several entries, each with a
    /// tag of its own, `Zeroed::SLOTS` in all). The tag is written last:
    /// every entry `f` writes must be of `key` as far as the bucket goes
    /// (every key it writes has `key`'s bucket and tag).
    #[inline]
    pub(crate) fn update(
        &self,
        key: u128,
        f: impl FnOnce(&[T; N], &Writer<'_, T, N>) -> Option<usize>,
    ) {
        let (bucket, tag) = self.tt.place(key);
        locked(&self.tt.buckets()[bucket], |s| {
            fence(Release);
            // Safety: under the lock no one else writes (readers without
            // it only read, and reads do not race with reads).
            let old = unsafe { s.read() };
            let writer = Writer {
                words: s as *const AtomicU32,
                candidates: self.tt.tagged(bucket, tag),
                _slots: std::marker::PhantomData,
            };
            if let Some(tagged) = f(&old, &writer) {
                self.tt.set_tag_at(bucket, tagged, tag);
            }
        })
    }

    /// As [`Tt::prefetch`]: `key`'s tags, for a [`WordTt::read`] soon after.
    #[inline]
    pub(crate) fn prefetch(&self, key: u128) {
        self.tt.prefetch(key);
    }

    /// As [`Tt::prefetch_bucket`], for a [`WordTt::update`] later.
    #[inline]
    pub(crate) fn prefetch_bucket(&self, key: u128) {
        self.tt.prefetch_bucket(key);
    }

    /// Calls `f` with a copy of every bucket's slots, each taken under its
    /// lock (see [`Tt::for_each_bucket`]).
    pub(crate) fn for_each_bucket(&self, mut f: impl FnMut(&[T; N])) {
        for b in self.tt.buckets() {
            // Safety: as in `update`.
            let slots = locked(b, |s| unsafe { s.read() });
            f(&slots);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

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

    /// A slot of fourteen words, all equal in every value written; two
    /// make a bucket of two cache lines, the second slot across both.
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C)]
    struct Wide([u32; 14]);
    // Safety: fourteen words, any of them valid.
    unsafe impl Words for Wide {}
    // Safety: all zero is a valid value.
    unsafe impl Zeroed for [Wide; 2] {}

    /// Whether every word of both slots of the bucket equals its slot's
    /// first, as every write leaves them: what `f` of a read found.
    fn whole(b: Slots<'_, Wide, 2>) -> bool {
        (0..2).all(|i| (1..14).all(|w| b.word(i, w) == b.word(i, 0)))
    }

    #[test]
    fn word_tables_write_one_slot_and_read_it_back_either_way() {
        let t: WordTt<Wide, 2> = WordTt::with_buckets(1).unwrap();
        t.update(9, |b, w| {
            assert_eq!(*b, [Wide([0; 14]); 2]);
            w.slot(1, &b[1], &Wide([7; 14]));
            Some(1)
        });
        // Nothing to write leaves the bucket as it was.
        t.update(9, |_, _| None);
        for lock_free in [false, true] {
            let read = t.read(9, lock_free, |b| {
                [b.word(0, 3), b.word(1, 0), b.word(1, 13)]
            });
            assert_eq!(read, Some([0, 7, 7]));
        }
        let mut seen = Vec::new();
        t.for_each_bucket(|b| seen.push(*b));
        assert_eq!(seen, [[Wide([0; 14]), Wide([7; 14])]]);
    }

    /// A reader without the lock does not keep what it read while a
    /// writer was halfway through a slot, nor what it read before a write
    /// that came while it read: it reads again. Reading without checking
    /// the count, or a write that leaves the count as it was, fails this.
    #[test]
    fn lock_free_reads_wait_out_a_write_and_read_again_after_one() {
        let t: WordTt<Wide, 2> = WordTt::with_buckets(1).unwrap();
        t.update(5, |b, w| {
            w.slot(1, &b[1], &Wide([3; 14]));
            Some(1)
        });
        // A writer halfway through slot 1: the count odd, half the words new.
        let b = t.tt.bucket(5);
        b.lock.fetch_add(1, Acquire);
        let words = b.slots.get() as *const AtomicU32;
        let write = |from: usize, to: usize| {
            for w in from..to {
                // Safety: slot 1's words, within the bucket.
                unsafe { (*words.add(14 + w)).store(4, Relaxed) };
            }
        };
        write(0, 7);
        std::thread::scope(|s| {
            let reader = s.spawn(|| t.read(5, true, |b| (whole(b), b.word(1, 13))).unwrap());
            // The reader cannot finish before the writer does.
            std::thread::sleep(std::time::Duration::from_millis(20));
            write(7, 14);
            b.lock.fetch_add(1, Release);
            assert_eq!(reader.join().unwrap(), (true, 4));
        });
        // A write between the reader's two looks at the count.
        let calls = std::cell::Cell::new(0);
        let read = t.read(5, true, |b| {
            let before = b.word(1, 0);
            if calls.replace(calls.get() + 1) == 0 {
                t.update(5, |b, w| {
                    w.slot(1, &b[1], &Wide([before + 1; 14]));
                    Some(1)
                });
            }
            before
        });
        assert_eq!((read, calls.get()), (Some(5), 2));
    }

    /// The same under load: a writer rewriting a slot (which spans the
    /// bucket's two cache lines) as fast as it can, a reader checking
    /// every read.
    #[test]
    fn lock_free_reads_never_see_half_a_write() {
        let t: WordTt<Wide, 2> = WordTt::with_buckets(1).unwrap();
        t.update(5, |b, w| {
            w.slot(1, &b[1], &Wide([0; 14]));
            Some(1)
        });
        let done = AtomicBool::new(false);
        let (mut reads, mut torn) = (0u64, 0u64);
        std::thread::scope(|s| {
            s.spawn(|| {
                for v in 1..=200_000u32 {
                    t.update(5, |b, w| {
                        w.slot(1, &b[1], &Wide([v; 14]));
                        Some(1)
                    });
                }
                done.store(true, Relaxed);
            });
            while !done.load(Relaxed) {
                reads += 1;
                torn += !t.read(5, true, whole).unwrap() as u64;
            }
        });
        assert!(reads > 0);
        assert_eq!(torn, 0, "{torn} of {reads} reads saw half a write");
    }

    /// Keys of one bucket of a table of 1,024: `(key, tag)` for the first
    /// `n` keys of the form `k * 2^64 + 1` that land in bucket 0.
    fn keys_of_bucket_zero(t: &WordTt<Wide, 2>, n: usize) -> Vec<(u128, u8)> {
        (1u128..)
            .map(|k| k << 64 | 1)
            .filter(|&k| t.tt.place(k).0 == 0)
            .map(|k| (k, t.tt.place(k).1))
            .take(n)
            .collect()
    }

    /// A read finds what was written for its key, also after the slot's
    /// neighbour changed, and nothing for a key whose tag is no slot's; a
    /// slot rewritten for another key no longer answers for the old one.
    /// A write that leaves the tags as they were, or puts the tag in the
    /// wrong byte, fails this.
    #[test]
    fn tags_send_a_read_to_the_bucket_only_where_its_key_may_be() {
        let t: WordTt<Wide, 2> = WordTt::with_buckets(1024).unwrap();
        let keys = keys_of_bucket_zero(&t, 300);
        let (a, b) = (
            keys[0],
            keys[1..].iter().find(|k| k.1 != keys[0].1).unwrap(),
        );
        // Key a in slot 0; every key of another tag is not looked for.
        t.update(a.0, |b, w| {
            w.slot(0, &b[0], &Wide([1; 14]));
            Some(0)
        });
        assert_eq!(t.read(a.0, true, |s| s.word(0, 0)), Some(1));
        assert_eq!(t.read(b.0, true, |s| s.word(0, 0)), None);
        // Key b in slot 1: both found, each through its own tag.
        t.update(b.0, |b, w| {
            w.slot(1, &b[1], &Wide([2; 14]));
            Some(1)
        });
        for lock_free in [false, true] {
            assert_eq!(t.read(a.0, lock_free, |s| s.word(0, 0)), Some(1));
            assert_eq!(t.read(b.0, lock_free, |s| s.word(1, 0)), Some(2));
        }
        // A key with a's tag is sent to the bucket (where the whole key
        // would tell it apart); one with no slot's tag is not.
        let same = keys[1..].iter().find(|k| k.1 == a.1).unwrap();
        assert!(t.read(same.0, true, |_| ()).is_some());
        let other = keys.iter().find(|k| k.1 != a.1 && k.1 != b.1).unwrap();
        assert!(t.read(other.0, true, |_| ()).is_none());
        // Slot 0 rewritten for `other`: a is no longer looked for.
        t.update(other.0, |b, w| {
            w.slot(0, &b[0], &Wide([3; 14]));
            Some(0)
        });
        assert!(t.read(a.0, true, |_| ()).is_none());
        assert_eq!(t.read(other.0, true, |s| s.word(0, 0)), Some(3));
        assert_eq!(t.read(b.0, true, |s| s.word(1, 0)), Some(2));
    }

    /// One slot of 28 words that holds eight entries, each with its tag,
    /// as the proof-number search's buckets are.
    #[derive(Clone, Copy, Debug, PartialEq)]
    #[repr(C)]
    struct Eight([u32; 28]);
    // Safety: 28 words, any of them valid.
    unsafe impl Words for Eight {}
    // Safety: all zero is a valid value.
    unsafe impl Zeroed for [Eight; 1] {
        const SLOTS: usize = 8;
    }

    /// Eight entries of one slot keep their tags in a word of eight
    /// bytes: eight keys of eight tags, each written with its entry's
    /// tag, are each found, reads and writes name its entry first among
    /// those to look at, and a key of a ninth tag is not looked for; the
    /// word is counted in the MiB. Tags kept in four bytes (entries 4 to
    /// 7 untagged), or entries named from the wrong byte, fail it.
    #[test]
    fn eight_entries_keep_eight_tags() {
        let t: WordTt<Eight, 1> = WordTt::with_buckets(1024).unwrap();
        let mut keys: Vec<(u128, u8)> = Vec::new();
        for k in (1u128..).map(|k| k << 64 | 1) {
            let (i, tag) = t.tt.place(k);
            if i == 0 && keys.iter().all(|x| x.1 != tag) {
                keys.push((k, tag));
                if keys.len() == 9 {
                    break;
                }
            }
        }
        for (entry, &(key, _)) in keys[..8].iter().enumerate() {
            t.update(key, |_, w| {
                w.set(0, entry, entry as u32 + 1);
                Some(entry)
            });
        }
        for (entry, &(key, _)) in keys[..8].iter().enumerate() {
            for lock_free in [false, true] {
                let read = t.read(key, lock_free, |s| s.word(0, entry));
                assert_eq!(read, Some(entry as u32 + 1), "entry {entry}");
            }
            // The entries to look at: this one, and with tags all apart
            // no other below it (a byte above may be marked for nothing).
            let looked = t.read(key, true, |s| s.candidates().collect::<Vec<_>>());
            assert_eq!(looked.unwrap()[0], entry);
            t.update(key, |_, w| {
                assert_eq!(w.candidates().next(), Some(entry));
                None
            });
        }
        assert!(t.read(keys[8].0, true, |_| ()).is_none());
        let w = WordTt::<Eight, 1>::with_mib(1).unwrap();
        assert_eq!(w.tt.len, (1 << 20) / (128 + 8));
    }

    #[test]
    fn every_key_finds_its_bucket_and_memory_is_refused_cleanly() {
        let t: Tt<Pair> = Tt::with_mib(1).unwrap();
        // The tags are counted in the MiB: buckets of a cache line and a
        // word of tags.
        assert_eq!(t.len, (1 << 20) / (64 + 4));
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
        assert!(matches!(
            WordTt::<Wide, 2>::with_mib(1 << 40),
            Err(SolveError::Memory { .. })
        ));
        assert!(matches!(
            WordTt::<Wide, 2>::with_buckets(usize::MAX / 64),
            Err(SolveError::Memory { .. })
        ));
        // The tags are counted in the MiB: 1 MiB holds 7,943 buckets of
        // two cache lines and a word, not 8,192.
        let w = WordTt::<Wide, 2>::with_mib(1).unwrap();
        assert_eq!(w.tt.len, (1 << 20) / (128 + 4));
    }
}
