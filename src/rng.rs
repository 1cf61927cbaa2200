//! A small, fast, repeatable pseudo-random generator (splitmix64) for
//! random samples: `verify`'s positions, benches and tests. Not for
//! anything that needs unpredictability.

/// splitmix64: every seed, zero included, gives a full-period sequence.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started from `seed`: the same seed gives the same numbers.
    pub const fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next number, uniform over all 64-bit values.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`); the modulo bias is negligible for
    /// the small `n` of move lists and samples.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// An index into a slice of `len > 0` elements.
    #[inline]
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }

    /// `n` distinct indices of `0..len` (all of them if `n >= len`) in
    /// random order: the first `n` steps of a Fisher-Yates shuffle.
    pub fn sample(&mut self, len: usize, n: usize) -> Vec<usize> {
        let n = n.min(len);
        let mut picked: Vec<usize> = (0..len).collect();
        for i in 0..n {
            let k = i + self.index(len - i);
            picked.swap(i, k);
        }
        picked.truncate(n);
        picked
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn a_sample_is_distinct_in_range_and_repeatable() {
        for (len, n) in [(0, 3), (5, 0), (5, 5), (10, 20), (100, 7)] {
            let a = SplitMix64::new(42).sample(len, n);
            assert_eq!(a.len(), n.min(len));
            assert!(a.iter().all(|&i| i < len));
            let mut d = a.clone();
            d.sort();
            d.dedup();
            assert_eq!(d.len(), a.len(), "{a:?}");
            assert_eq!(SplitMix64::new(42).sample(len, n), a);
        }
        // Every index is picked sometimes.
        let mut seen = [false; 10];
        let mut rng = SplitMix64::new(1);
        for _ in 0..100 {
            seen[rng.sample(10, 2)[0]] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
