//! The huge-page allocator keeps every byte across growth and shrinking on both sides
//! of its threshold, aligns and zeroes large blocks, and marks them for huge pages.
//! It is also this test binary's global allocator, so every runtime unit test runs on
//! it.

use super::{
    keeping_allowed_with, FreeBlocks, HugePageAlloc, CACHED_BLOCKS, CACHED_BYTES, HUGE_PAGE_BYTES,
    LARGE_BLOCK_BYTES,
};
use proptest::prelude::*;
use std::alloc::{GlobalAlloc, Layout};

#[global_allocator]
static TEST_ALLOCATOR: HugePageAlloc = HugePageAlloc;

/// A byte that differs between neighbouring offsets and between blocks.
fn pattern(offset: usize, seed: u8) -> u8 {
    (offset.wrapping_mul(31) ^ (offset >> 12)) as u8 ^ seed
}

/// Allocates `from` bytes, fills them, reallocates to `to`, checks the kept prefix and
/// writes the whole new block (a short mapping would fault), then frees it.
fn realloc_keeps_bytes(from: usize, to: usize, align: usize) {
    let layout = Layout::from_size_align(from, align).expect("a valid layout");
    // SAFETY: `layout` has a non-zero size (the callers pass sizes of at least 1).
    let block = unsafe { HugePageAlloc.alloc(layout) };
    assert!(!block.is_null(), "alloc {from}");
    assert_eq!(block as usize % align, 0);
    // SAFETY: `block` is valid for `from` bytes and nothing else refers to it.
    let bytes = unsafe { std::slice::from_raw_parts_mut(block, from) };
    bytes
        .iter_mut()
        .enumerate()
        .for_each(|(i, b)| *b = pattern(i, 7));
    // SAFETY: `block` came from this allocator with `layout`; `to` is non-zero.
    let grown = unsafe { HugePageAlloc.realloc(block, layout, to) };
    assert!(!grown.is_null(), "realloc {from} -> {to}");
    assert_eq!(grown as usize % align, 0);
    // SAFETY: `grown` is valid for `to` bytes and replaced `block`.
    let bytes = unsafe { std::slice::from_raw_parts_mut(grown, to) };
    let kept = from.min(to);
    assert!(
        bytes[..kept]
            .iter()
            .enumerate()
            .all(|(i, b)| *b == pattern(i, 7)),
        "bytes lost in realloc {from} -> {to} (align {align})"
    );
    bytes.fill(0xa5);
    let new_layout = Layout::from_size_align(to, align).expect("a valid layout");
    // SAFETY: `grown` is this allocator's block of `new_layout`, not used afterwards.
    unsafe { HugePageAlloc.dealloc(grown, new_layout) };
}

#[test]
fn realloc_across_the_threshold_keeps_every_byte() {
    let below = LARGE_BLOCK_BYTES - 1;
    let cases = [
        (1000, LARGE_BLOCK_BYTES),
        (below, LARGE_BLOCK_BYTES),
        (LARGE_BLOCK_BYTES, below),
        (LARGE_BLOCK_BYTES, 3 * LARGE_BLOCK_BYTES + 5),
        (3 * LARGE_BLOCK_BYTES + 5, LARGE_BLOCK_BYTES + 1),
        (
            LARGE_BLOCK_BYTES + 1,
            LARGE_BLOCK_BYTES + HUGE_PAGE_BYTES - 100,
        ),
        (5 * LARGE_BLOCK_BYTES, 17),
    ];
    for (from, to) in cases {
        for align in [1, 8, 64, 4096] {
            realloc_keeps_bytes(from, to, align);
        }
    }
}

#[test]
fn large_blocks_are_zeroed_and_aligned_to_huge_pages() {
    let layout = Layout::from_size_align(LARGE_BLOCK_BYTES + 12_345, 8).expect("a layout");
    // SAFETY: `layout` has a non-zero size.
    let block = unsafe { HugePageAlloc.alloc_zeroed(layout) };
    assert!(!block.is_null());
    assert_eq!(block as usize % HUGE_PAGE_BYTES, 0);
    // SAFETY: `block` is valid for `layout.size()` bytes and only read here.
    let bytes = unsafe { std::slice::from_raw_parts(block, layout.size()) };
    assert!(bytes.iter().all(|b| *b == 0));
    // SAFETY: `block` came from this allocator with `layout`.
    unsafe { HugePageAlloc.dealloc(block, layout) };
}

#[test]
fn vectors_grow_and_shrink_through_the_threshold() {
    // Through the global allocator, as every runtime buffer is.
    let mut values: Vec<u64> = Vec::new();
    for i in 0..(3 * LARGE_BLOCK_BYTES / 8) as u64 {
        values.push(i ^ 0x5555);
    }
    values.truncate(1000);
    values.shrink_to_fit();
    assert!(values
        .iter()
        .enumerate()
        .all(|(i, v)| *v == i as u64 ^ 0x5555));
    assert_eq!(vec![0.0f64; LARGE_BLOCK_BYTES].iter().sum::<f64>(), 0.0);
}

/// The `THPeligible` flag of the mapping holding `address` in `/proc/self/smaps`, if
/// this kernel reports it.
fn huge_page_eligible(address: usize) -> Option<bool> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut inside = false;
    for line in smaps.lines() {
        if let Some((range, _)) = line.split_once(' ') {
            if let Some((start, end)) = range.split_once('-') {
                if let (Ok(start), Ok(end)) = (
                    usize::from_str_radix(start, 16),
                    usize::from_str_radix(end, 16),
                ) {
                    inside = (start..end).contains(&address);
                    continue;
                }
            }
        }
        if let Some(flag) = line.strip_prefix("THPeligible:").filter(|_| inside) {
            return Some(flag.trim() == "1");
        }
    }
    None
}

#[test]
fn large_blocks_are_eligible_for_huge_pages() {
    let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
    if thp.map_or(true, |mode| mode.contains("[never]")) {
        return;
    }
    let large = vec![1u8; LARGE_BLOCK_BYTES];
    if let Some(eligible) = huge_page_eligible(large.as_ptr() as usize) {
        assert!(eligible, "a large block is not marked for huge pages");
    }
}

/// A vector that grows from 4 MiB to 64 MiB by doubling, and shrinks back, keeps every
/// element, and its buffer stays aligned to a huge page and marked for huge pages
/// (resized in the kernel, moved to an aligned range when it cannot grow in place).
#[test]
fn large_blocks_resized_in_place_or_moved_stay_aligned_and_eligible() {
    let thp = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled");
    let thp_on = thp.is_ok_and(|mode| !mode.contains("[never]"));
    let mut values: Vec<u64> = Vec::with_capacity(LARGE_BLOCK_BYTES / 8);
    // A neighbour mapped right after the first block makes growing in place
    // impossible at least once, so the move path runs too.
    let neighbour = vec![3u8; LARGE_BLOCK_BYTES];
    for i in 0..(64 << 20) / 8 {
        values.push(i as u64 ^ 0x5a5a);
        if values.len() == values.capacity() || i == 0 {
            let address = values.as_ptr() as usize;
            assert_eq!(address % HUGE_PAGE_BYTES, 0, "at {} elements", values.len());
            if thp_on {
                if let Some(eligible) = huge_page_eligible(address) {
                    assert!(
                        eligible,
                        "not marked for huge pages at {} elements",
                        values.len()
                    );
                }
            }
        }
    }
    assert!(values
        .iter()
        .enumerate()
        .all(|(i, &v)| v == i as u64 ^ 0x5a5a));
    values.truncate(LARGE_BLOCK_BYTES / 8 + 1);
    values.shrink_to_fit();
    assert_eq!(values.as_ptr() as usize % HUGE_PAGE_BYTES, 0);
    assert!(values
        .iter()
        .enumerate()
        .all(|(i, &v)| v == i as u64 ^ 0x5a5a));
    assert!(neighbour.iter().all(|&b| b == 3));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn realloc_keeps_bytes_for_any_sizes(
        from in prop_oneof![1..70_000usize, LARGE_BLOCK_BYTES - 5000..LARGE_BLOCK_BYTES + 5000, 1..3 * LARGE_BLOCK_BYTES],
        to in prop_oneof![1..70_000usize, LARGE_BLOCK_BYTES - 5000..LARGE_BLOCK_BYTES + 5000, 1..3 * LARGE_BLOCK_BYTES],
        align_log in 0..13u32,
    ) {
        realloc_keeps_bytes(from, to, 1 << align_log);
    }
}

#[test]
fn a_kept_block_is_never_handed_out_as_zeroed_memory() {
    let layout = Layout::from_size_align(LARGE_BLOCK_BYTES + 999, 16).expect("a layout");
    for _ in 0..3 {
        // SAFETY: `layout` has a non-zero size.
        let dirty = unsafe { HugePageAlloc.alloc(layout) };
        assert!(!dirty.is_null());
        // SAFETY: `dirty` is valid for `layout.size()` bytes; it is then freed and
        // not used again.
        unsafe {
            std::ptr::write_bytes(dirty, 0xff, layout.size());
            HugePageAlloc.dealloc(dirty, layout);
        }
        // SAFETY: as above.
        let zeroed = unsafe { HugePageAlloc.alloc_zeroed(layout) };
        assert!(!zeroed.is_null());
        // SAFETY: `zeroed` is valid for `layout.size()` bytes and only read here.
        let bytes = unsafe { std::slice::from_raw_parts(zeroed, layout.size()) };
        assert!(bytes.iter().all(|b| *b == 0));
        // SAFETY: `zeroed` came from this allocator with `layout`.
        unsafe { HugePageAlloc.dealloc(zeroed, layout) };
    }
}

#[test]
fn kept_blocks_are_bounded_and_taken_by_exact_length() {
    // Addresses stand in for blocks: the list never touches memory.
    let mut kept = FreeBlocks::EMPTY;
    let len = 4 * HUGE_PAGE_BYTES;
    let fitting = CACHED_BLOCKS.min(CACHED_BYTES / len);
    let accepted = (1..=CACHED_BLOCKS + 4)
        .filter(|&i| kept.keep((i * len) as *mut u8, len))
        .count();
    assert_eq!(accepted, fitting);
    assert_eq!(kept.take(len + HUGE_PAGE_BYTES), None);
    // The most recently freed block first (its pages are the likeliest in cache).
    assert_eq!(kept.take(len), Some((fitting * len) as *mut u8));
    assert!(kept.keep(HUGE_PAGE_BYTES as *mut u8, HUGE_PAGE_BYTES));
    assert_eq!(kept.take(HUGE_PAGE_BYTES), Some(HUGE_PAGE_BYTES as *mut u8));
    assert_eq!(kept.take(HUGE_PAGE_BYTES), None);
    let rest = (0..).take_while(|_| kept.take(len).is_some()).count();
    assert_eq!(rest, fitting - 1);
    assert_eq!((kept.count, kept.bytes), (0, 0));
}

#[test]
fn reused_blocks_are_whole() {
    // Many large blocks of a few lengths, freed and allocated again: every block
    // handed back out is whole and writable.
    let sizes = [
        LARGE_BLOCK_BYTES,
        2 * LARGE_BLOCK_BYTES + 1,
        LARGE_BLOCK_BYTES + 3,
    ];
    for round in 0..3u8 {
        let blocks: Vec<Vec<u8>> = (0..40)
            .map(|i| vec![round ^ i as u8; sizes[i % sizes.len()]])
            .collect();
        for (i, block) in blocks.iter().enumerate() {
            assert!(block.iter().all(|b| *b == round ^ i as u8));
        }
    }
}

#[test]
fn a_release_promptly_setting_forbids_keeping_blocks() {
    assert!(keeping_allowed_with(None));
    assert!(!keeping_allowed_with(Some("1048576".into())));
}
