//! The transposition table every solver shares the design of: a fixed array of buckets sized
//! from a MiB limit, never growing past it.
//!
//! Each bucket holds [`WAYS`] entries behind a one-byte spin lock, so worker threads can share
//! one table without a concurrent map. Entries carry the full 64-bit key; a lookup only uses an
//! entry whose key matches. Replacement (Henderson et al. 2009 keep the larger subtrees): a new
//! key takes an empty slot or evicts the entry with the least work, solved entries counting
//! double, so expensive proofs survive.

use std::alloc::{self, Layout};
use std::cell::UnsafeCell;
use std::hint;
use std::sync::atomic::{AtomicBool, Ordering};

use nash_board::{BitSet, Geometry, Symmetry};

use crate::movebit::MoveBit;
use crate::outcome::StopReason;

const MIB: usize = 1 << 20;

/// Entries per bucket.
pub(crate) const WAYS: usize = 4;

/// Proof and disproof numbers at or above this are infinite.
pub(crate) const INF: u32 = u32::MAX / 4;

/// One stored position. `pn == 0`: the player to move wins; `dn == 0`: they lose. A solved
/// entry's `carrier` is the proof's carrier (van Rijswijck 2002 s.2.3) and `best` the winning
/// move for wins, when one is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Entry<B> {
    pub(crate) key: u64,
    pub(crate) pn: u32,
    pub(crate) dn: u32,
    /// Nodes spent below this entry (saturating), for replacement.
    pub(crate) work: u32,
    pub(crate) best: Option<MoveBit>,
    pub(crate) carrier: B,
}

impl<B: BitSet> Entry<B> {
    /// A solved entry.
    pub(crate) fn solved(
        key: u64,
        win: bool,
        best: Option<MoveBit>,
        carrier: B,
        work: u32,
    ) -> Entry<B> {
        let (pn, dn) = if win { (0, INF) } else { (INF, 0) };
        Entry { key, pn, dn, work, best, carrier }
    }

    /// The entry as seen through `sym`, a symmetry of the board `geom`: its move and carrier
    /// mapped, its numbers kept (a colour-swapping symmetry also swaps the side to move, so
    /// "the player to move wins" means the same on both sides). Each symmetry is its own
    /// inverse, so the same call maps an entry into the canonical frame before it is stored and
    /// back out of it after it is read.
    #[inline]
    pub(crate) fn mapped(self, geom: &Geometry<B>, sym: Symmetry) -> Entry<B> {
        if sym == Symmetry::Identity {
            return self;
        }
        let best = self.best.map(|b| MoveBit::from_bit(geom.map_bit(sym, b.bit())));
        let carrier =
            if self.carrier.is_empty() { self.carrier } else { geom.map_set(sym, self.carrier) };
        Entry { best, carrier, ..self }
    }

    /// Whether the entry holds a proven value.
    #[inline]
    pub(crate) fn is_solved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }

    fn priority(&self) -> u64 {
        let w = u64::from(self.work);
        if self.is_solved() {
            2 * w + 1
        } else {
            w
        }
    }
}

struct Bucket<B> {
    lock: AtomicBool,
    slots: UnsafeCell<[Entry<B>; WAYS]>,
}

/// A bounded table of [`Entry`]s shared by reference between threads.
pub(crate) struct Table<B> {
    buckets: *mut Bucket<B>,
    len: usize,
}

// SAFETY: every access to a bucket's slots goes through that bucket's spin lock (`with`), so
// slots are never read and written at once; entries are plain `Copy` data.
unsafe impl<B: BitSet> Sync for Table<B> {}
// SAFETY: the table owns its allocation; moving it to another thread moves the ownership.
unsafe impl<B: BitSet> Send for Table<B> {}

impl<B> std::fmt::Debug for Table<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table").field("buckets", &self.len).finish()
    }
}

impl<B: BitSet> Table<B> {
    /// A table of at most `bytes` bytes (at least one bucket). When the machine refuses that
    /// much memory, half the size is tried, and so on down to one MiB: a smaller table only
    /// costs search, never a value. `Err` names the size asked for when even that fails.
    pub(crate) fn with_bytes(bytes: usize) -> Result<Table<B>, StopReason> {
        let mut size = bytes;
        loop {
            if let Some(t) = Table::with_buckets((size / std::mem::size_of::<Bucket<B>>()).max(1)) {
                if size < bytes {
                    tracing::warn!(asked = bytes, got = size, "transposition table made smaller");
                }
                return Ok(t);
            }
            if size <= MIB {
                return Err(StopReason::OutOfMemory { mib: bytes.div_ceil(MIB) });
            }
            size /= 2;
        }
    }

    /// A table of `len` buckets, `None` when the memory cannot be had.
    fn with_buckets(len: usize) -> Option<Table<B>> {
        let layout = Layout::array::<Bucket<B>>(len).ok()?;
        // SAFETY: the layout has non-zero size (len >= 1 and a bucket is not zero-sized). The
        // all-zero bit pattern is a valid bucket: an unlocked `AtomicBool`, and entries of plain
        // integers (bitboards are integer arrays) and an `Option<MoveBit>` whose zero is `None`
        // (a niche of `NonZeroU16`), with key 0 meaning "empty slot". Zeroed
        // pages come lazily from the OS, so the table costs memory only as it fills.
        let ptr = unsafe { alloc::alloc_zeroed(layout) } as *mut Bucket<B>;
        (!ptr.is_null()).then_some(Table { buckets: ptr, len })
    }

    #[inline]
    fn with<R>(&self, key: u64, f: impl FnOnce(&mut [Entry<B>; WAYS]) -> R) -> R {
        // Multiply-shift maps the key onto any number of buckets (no power of two needed, so
        // the table can use its whole memory limit).
        let idx = ((u128::from(key) * self.len as u128) >> 64) as usize;
        // SAFETY: key < 2^64, so idx < len: inside the allocation.
        let bucket = unsafe { &*self.buckets.add(idx) };
        while bucket
            .lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            hint::spin_loop();
        }
        // SAFETY: the spin lock is held, so no other thread touches these slots until the
        // release below.
        let r = f(unsafe { &mut *bucket.slots.get() });
        bucket.lock.store(false, Ordering::Release);
        r
    }

    /// The bytes the table takes once full.
    pub(crate) fn bytes(&self) -> usize {
        self.len * std::mem::size_of::<Bucket<B>>()
    }

    /// The entry for `key`, if stored.
    #[inline]
    pub(crate) fn get(&self, key: u64) -> Option<Entry<B>> {
        let key = key.max(1);
        self.with(key, |slots| slots.iter().find(|e| e.key == key).copied())
    }

    /// Stores an entry, replacing the one with the same key or the cheapest one.
    #[inline]
    pub(crate) fn put(&self, mut entry: Entry<B>) {
        entry.key = entry.key.max(1);
        self.with(entry.key, |slots| {
            let mut victim = 0;
            let mut best = u64::MAX;
            for (i, e) in slots.iter().enumerate() {
                if e.key == entry.key {
                    // Never let an unsolved entry overwrite a proof of the same position.
                    if e.is_solved() && !entry.is_solved() {
                        return;
                    }
                    victim = i;
                    break;
                }
                let p = if e.key == 0 { 0 } else { e.priority() + 1 };
                if p < best {
                    best = p;
                    victim = i;
                }
            }
            slots[victim] = entry;
        });
    }
}

impl<B> Drop for Table<B> {
    fn drop(&mut self) {
        let layout = Layout::array::<Bucket<B>>(self.len).expect("layout was valid at allocation");
        // SAFETY: allocated in `with_buckets` with this same layout and not freed before.
        unsafe { alloc::dealloc(self.buckets as *mut u8, layout) };
    }
}

#[cfg(test)]
mod tests {
    use nash_board::Bitboard;

    use super::*;

    /// A table larger than any address space is refused with its size named, not an abort.
    #[test]
    fn a_table_beyond_the_address_space_is_an_error() {
        let e = Table::<Bitboard>::with_bytes(usize::MAX).err();
        // Halving reaches a size the machine grants long before one MiB; what matters is that
        // nothing aborts. An impossible size on its own is refused.
        assert!(e.is_none() || matches!(e, Some(StopReason::OutOfMemory { .. })));
        assert!(Table::<Bitboard>::with_buckets(usize::MAX / 2).is_none());
        let t = Table::<Bitboard>::with_bytes(MIB).expect("a MiB");
        t.put(Entry::solved(7, true, None, Bitboard::EMPTY, 1));
        assert_eq!(t.get(7).map(|e| e.pn), Some(0));
    }

    /// "No move" costs no room: an entry is as large as with a bare `u16` move, so the table
    /// holds as many entries as before the move had a type.
    #[test]
    fn no_move_costs_no_room() {
        assert_eq!(std::mem::size_of::<Option<MoveBit>>(), 2);
        assert_eq!(std::mem::size_of::<Entry<Bitboard>>(), 48);
        assert_eq!(std::mem::size_of::<Entry<nash_board::TinyBitboard>>(), 32);
        assert_eq!(std::mem::size_of::<Entry<nash_board::WideBitboard>>(), 72);
    }
}
