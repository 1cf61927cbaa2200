//! How much memory the machine has for this process, and how much it has
//! used: the generator and the solvers refuse work that would not fit
//! instead of being killed halfway.

/// Bytes of memory available to this process, from /proc/meminfo where it
/// exists.
pub fn available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Hands the memory that the allocator keeps from freed allocations back
/// to the system, where the allocator can (glibc's `malloc_trim`): a run
/// of many steps, such as the generator's class pairs, otherwise keeps
/// what each step's threads freed resident, and the next step's peak sits
/// on top of it.
pub fn release_freed() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // Safety: malloc_trim takes no pointer and may be called at any
        // time from any thread.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// The peak resident memory of this process so far, from /proc where it
/// exists.
pub fn peak() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Types whose all-zero bytes are a valid value, so that a [`ZeroedMap`]
/// of them needs no initialising.
///
/// # Safety
/// The all-zero bit pattern must be a valid `Self`.
pub unsafe trait ZeroValid: Sized {}

// Safety: zero is a valid integer, and a valid atomic integer.
unsafe impl ZeroValid for u8 {}
unsafe impl ZeroValid for u64 {}
unsafe impl ZeroValid for std::sync::atomic::AtomicU8 {}
unsafe impl ZeroValid for std::sync::atomic::AtomicU64 {}

/// `len` values, all zero at first, in an anonymous memory map asked for
/// huge pages: the generator's slots and the tables held in memory, which
/// are read at random. Where the system gives transparent huge pages
/// only to memory that asks (Linux's "madvise" mode, a common default),
/// a vector's 4 KiB pages make nearly every such read miss the TLB as well
/// as the cache: one read waiting on another at random in 1 GiB took
/// 260 to 300 ns on 4 KiB pages and 175 to 195 ns on huge ones on the
/// 2-core machine of docs/RESULTS.md (`cargo run --release --example
/// random_reads`).
pub struct ZeroedMap<T: ZeroValid> {
    /// `None` when `len` is 0 (a map cannot be empty).
    map: Option<memmap2::MmapMut>,
    len: usize,
    _values: std::marker::PhantomData<T>,
}

impl<T: ZeroValid> ZeroedMap<T> {
    /// `len` zero values; an error, not an abort, when the system refuses
    /// the memory.
    pub fn new(len: usize) -> std::io::Result<ZeroedMap<T>> {
        if len == 0 {
            return Ok(ZeroedMap {
                map: None,
                len,
                _values: std::marker::PhantomData,
            });
        }
        let bytes = len
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| std::io::Error::other("too many values for memory"))?;
        let map = memmap2::MmapMut::map_anon(bytes)?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        // A map starts on a page boundary, aligned for any `T`.
        debug_assert_eq!(map.as_ptr() as usize % std::mem::align_of::<T>(), 0);
        Ok(ZeroedMap {
            map: Some(map),
            len,
            _values: std::marker::PhantomData,
        })
    }
}

impl ZeroedMap<std::sync::atomic::AtomicU8> {
    /// The values as plain bytes, once no thread sets them any more.
    pub fn into_plain(self) -> ZeroedMap<u8> {
        // AtomicU8 has the size, alignment and bit validity of u8: the
        // same map holds the same values as plain bytes.
        ZeroedMap {
            map: self.map,
            len: self.len,
            _values: std::marker::PhantomData,
        }
    }
}

impl<T: ZeroValid> std::ops::Deref for ZeroedMap<T> {
    type Target = [T];

    #[inline]
    fn deref(&self) -> &[T] {
        match &self.map {
            // Safety: the map holds `len` values of `T`, aligned, each
            // valid (zero at first, then only written as `T`); it lives as
            // long as `self`, and shared access goes through `&self`.
            Some(map) => unsafe { std::slice::from_raw_parts(map.as_ptr() as *const T, self.len) },
            None => &[],
        }
    }
}

impl<T: ZeroValid> std::ops::DerefMut for ZeroedMap<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.map {
            // Safety: as in `deref`, with the map borrowed mutably.
            Some(map) => unsafe {
                std::slice::from_raw_parts_mut(map.as_mut_ptr() as *mut T, self.len)
            },
            None => &mut [],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

    #[test]
    fn a_zeroed_map_starts_at_zero_and_keeps_what_is_written() {
        for len in [0, 1, 7, 4096, 1 << 20] {
            let mut words = ZeroedMap::<u64>::new(len).unwrap();
            assert_eq!(words.len(), len);
            assert!(words.iter().all(|&w| w == 0));
            for (i, w) in words.iter_mut().enumerate() {
                *w = i as u64 * 3 + 1;
            }
            assert!(words
                .iter()
                .enumerate()
                .all(|(i, &w)| w == i as u64 * 3 + 1));
        }
    }

    #[test]
    fn atomics_set_in_a_zeroed_map_are_read_back_plain() {
        let slots = ZeroedMap::<AtomicU8>::new(10_000).unwrap();
        for (i, s) in slots.iter().enumerate() {
            s.fetch_or((i % 251) as u8, Relaxed);
        }
        let bytes = slots.into_plain();
        assert!(bytes.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
    }
}
