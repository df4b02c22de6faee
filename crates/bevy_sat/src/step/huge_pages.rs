//! Growing the body records into memory the kernel may back with 2 MiB pages.
//!
//! A scene of tens of thousands of bodies keeps their records in tens of megabytes, which the
//! narrow phase, resolution and the spatial queries read in an order unrelated to memory. With
//! 4 KiB pages each such read may also miss the processor's table of address translations,
//! which holds a few thousand pages; with 2 MiB pages the whole array needs a few entries. On
//! Linux, where transparent huge pages are commonly given only to memory that asks for them
//! (`madvise`), [`reserve`] asks for them before the new allocation is first written, so that
//! its pages are faulted in large. Elsewhere, or when the system has them turned off, it is an
//! ordinary `Vec::reserve`.

use std::mem::MaybeUninit;

/// The size of a transparent huge page on x86-64 and on most ARM64 systems.
const HUGE_PAGE: usize = 2 << 20;

/// Allocations smaller than this are grown as usual: they span too few huge pages to gain.
const WORTH_ASKING: usize = 2 * HUGE_PAGE;

/// Appends `value` to `vec`, growing it by [`reserve`] when it is full.
#[inline]
pub(crate) fn push<T>(vec: &mut Vec<T>, value: T) {
    reserve(vec, 1);
    vec.push(value);
}

/// Makes room in `vec` for at least `additional` more elements, like [`Vec::reserve`] (at least
/// doubling the capacity when it must grow). A new allocation of several huge pages is asked
/// for huge pages before the elements are moved into it.
pub(crate) fn reserve<T>(vec: &mut Vec<T>, additional: usize) {
    let needed = vec.len().saturating_add(additional);
    if needed <= vec.capacity() {
        return;
    }
    let capacity = needed.max(vec.capacity().saturating_mul(2));
    if capacity.saturating_mul(size_of::<T>()) < WORTH_ASKING {
        vec.reserve(additional);
        return;
    }
    let mut grown = Vec::with_capacity(capacity);
    advise(grown.spare_capacity_mut());
    grown.append(vec);
    *vec = grown;
}

/// Asks the kernel to back the whole 2 MiB pages inside `memory` with huge pages. A hint:
/// nothing in `memory` changes, and a kernel without transparent huge pages refuses it, which
/// changes nothing either.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise<T>(memory: &mut [MaybeUninit<T>]) {
    let bytes = size_of_val(memory);
    let base = memory.as_mut_ptr().cast::<u8>();
    let lead = base.align_offset(HUGE_PAGE);
    if lead >= bytes {
        return;
    }
    let length = (bytes - lead) & !(HUGE_PAGE - 1);
    if length == 0 {
        return;
    }
    let start = base.wrapping_add(lead);
    // SAFETY: `start..start + length` lies within `memory`, which the caller's `Vec` owns, and
    // starts on a page boundary (2 MiB is a multiple of every page size Linux uses).
    // MADV_HUGEPAGE changes only how the kernel backs those pages with physical memory: their
    // contents, their mapping and their protection stay as they are, so no Rust reference to
    // them is affected. The result is ignored: refused advice leaves ordinary pages.
    unsafe {
        libc::madvise(start.cast(), length, libc::MADV_HUGEPAGE);
    }
}

/// Elsewhere: nothing to ask.
#[cfg(not(target_os = "linux"))]
fn advise<T>(_memory: &mut [MaybeUninit<T>]) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_keeps_the_elements_when_growing_into_huge_pages() {
        let mut records: Vec<[u64; 8]> = (0..1000u64).map(|i| [i; 8]).collect();
        reserve(&mut records, 100_000);
        assert!(records.capacity() >= 101_000);
        assert_eq!(records.len(), 1000);
        assert!(records.iter().enumerate().all(|(i, r)| *r == [i as u64; 8]));
    }

    #[test]
    fn reserve_grows_small_arrays_as_usual_and_at_least_doubles() {
        let mut small: Vec<u32> = vec![7; 10];
        let before = small.capacity();
        reserve(&mut small, 1);
        assert!(small.capacity() > before);
        assert_eq!(small, vec![7; 10]);
        let mut large: Vec<[u8; 64]> = Vec::with_capacity(100_000);
        large.resize(100_000, [1; 64]);
        reserve(&mut large, 1);
        assert!(large.capacity() >= 200_000);
        assert_eq!(large.len(), 100_000);
    }

    #[test]
    fn reserve_does_nothing_with_room_left() {
        let mut vec: Vec<u8> = Vec::with_capacity(64);
        vec.push(1);
        let pointer = vec.as_ptr();
        reserve(&mut vec, 10);
        assert_eq!(vec.as_ptr(), pointer);
    }

    /// The advice reaches the kernel: the allocation's mapping carries the `hg` flag (asked for
    /// huge pages) in `/proc/self/smaps`, whether or not huge pages are free to back it.
    #[cfg(target_os = "linux")]
    #[test]
    fn reserve_asks_the_kernel_for_huge_pages() {
        // A kernel without transparent huge pages refuses the advice; one with them turned off,
        // for the system or this process, may.
        let enabled = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        if enabled.is_err()
            || enabled.is_ok_and(|modes| modes.contains("[never]"))
            || status
                .lines()
                .any(|line| line.replace(' ', "") == "THP_enabled:\t0")
        {
            return;
        }
        let mut records: Vec<[u8; 256]> = Vec::new();
        reserve(&mut records, 40_000); // 9.8 MiB
        // Only the whole huge pages inside the allocation are advised. Wherever the allocation
        // starts, at least three follow its first 2 MiB boundary.
        let first = (records.as_ptr() as usize).next_multiple_of(HUGE_PAGE);
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("smaps is readable");
        for address in [first, first + 3 * HUGE_PAGE - 1] {
            assert_eq!(
                advised(&smaps, address),
                Some(true),
                "the records' mapping at {address:#x} was not advised"
            );
        }
    }

    /// Whether the mapping holding `address` carries the `hg` flag, or `None` when `smaps`
    /// lists no mapping that holds it.
    #[cfg(target_os = "linux")]
    fn advised(smaps: &str, address: usize) -> Option<bool> {
        let mut inside = false;
        for line in smaps.lines() {
            if let Some((range, _)) = line.split_once(' ')
                && let Some((low, high)) = range.split_once('-')
                && let (Ok(low), Ok(high)) = (
                    usize::from_str_radix(low, 16),
                    usize::from_str_radix(high, 16),
                )
            {
                inside = (low..high).contains(&address);
            } else if inside && let Some(rest) = line.strip_prefix("VmFlags:") {
                return Some(rest.split_whitespace().any(|flag| flag == "hg"));
            }
        }
        None
    }
}
