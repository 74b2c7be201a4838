//! Greedy's memory is bounded (issue 25: "greedy's memory bounded (≤ 256 MB a thread whatever
//! the game)"): a counting global allocator measures the most bytes live at once during one
//! greedy decision, from positions spread through random games of each game's heaviest
//! scenarios, and every one stays within [`LIMIT`].
//!
//! The allocator wraps `std::alloc::System` and keeps the bytes live now and the most live
//! since the last reset in atomics. This file holds one test, so nothing else in its binary
//! allocates while a decision is measured; the peak is reset to the live bytes just before
//! each decision, and the figure is what the decision added on top of them (the position
//! itself, the games' tables, the harness). `cargo test -p battlemat-ai --test greedy_memory
//! -- --nocapture` prints each scenario's peak. The rules crates and the AI are optimised in
//! debug builds (the workspace's `profile.dev.package`), so this runs in seconds there too.

use battlemat_ai::Greedy;
use battlemat_core::Game;
use battlemat_dice::Roller;
use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// 256 MiB: the most one greedy decision may hold at once, whatever the game.
const LIMIT: usize = 256 << 20;

/// Positions measured in each scenario, spread evenly through one random game.
const POSITIONS: usize = 16;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(n: usize) {
    let now = LIVE.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

fn shrank(n: usize) {
    LIVE.fetch_sub(n, Relaxed);
}

// SAFETY: every call is passed to `System` unchanged; the counters only read sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The peak bytes one default greedy decision added, at [`POSITIONS`] decisions spread
/// through a random game of `scenario`.
fn peaks<G: Game>(scenario: &str) -> Vec<usize> {
    let setup = G::setup(scenario, &BTreeMap::new()).unwrap();
    let states = battlemat_ai::random_decisions(G::new_game(&setup).unwrap(), 11, 200_000);
    let n = states.len();
    assert!(n > 0, "{scenario}: a game without decisions");
    (0..POSITIONS)
        .map(|k| k * n / POSITIONS)
        .map(|i| {
            let mut r = Roller::new(5, i as u64);
            let base = LIVE.load(Relaxed);
            PEAK.store(base, Relaxed);
            let choice = Greedy::default().choose(&states[i], &mut r);
            let peak = PEAK.load(Relaxed).saturating_sub(base);
            assert!(choice.is_some(), "{scenario}: no choice at decision {i}");
            drop(choice);
            peak
        })
        .collect()
}

#[test]
fn a_greedy_decision_holds_at_most_256_mib_in_every_game() {
    // The counter sees what is allocated: a mebibyte held is a mebibyte of peak.
    let base = LIVE.load(Relaxed);
    PEAK.store(base, Relaxed);
    let held = std::hint::black_box(vec![1u8; 1 << 20]);
    assert!(PEAK.load(Relaxed) - base >= 1 << 20);
    drop(held);
    // Each game's heaviest scenarios: the most bodies, the longest chains of dice.
    let rows: Vec<(&str, Vec<usize>)> = vec![
        (
            "sd-era/egg_hunt",
            peaks::<battlemat_sd_era::SdEra>("egg_hunt"),
        ),
        ("sd-era/zones", peaks::<battlemat_sd_era::SdEra>("zones")),
        ("sd-era/soccer", peaks::<battlemat_sd_era::SdEra>("soccer")),
        ("sd-era/safari", peaks::<battlemat_sd_era::SdEra>("safari")),
        ("ms-d20/ambush", peaks::<battlemat_ms_d20::MsD20>("ambush")),
        ("swtb/bunker", peaks::<battlemat_swtb::Swtb>("bunker")),
        ("serm/skirmish", peaks::<battlemat_serm::Serm>("skirmish")),
        (
            "abaoaqu/a_bao_a_qu",
            peaks::<battlemat_abaoaqu::AbaoAqu>("a_bao_a_qu"),
        ),
    ];
    let mut over = Vec::new();
    for (name, p) in &rows {
        let most = p.iter().copied().max().unwrap_or(0);
        let mut sorted = p.clone();
        sorted.sort_unstable();
        println!(
            "{name:<20} peak {:>8.2} MiB, median {:>8.2} MiB over {} positions",
            most as f64 / (1 << 20) as f64,
            sorted[sorted.len() / 2] as f64 / (1 << 20) as f64,
            p.len()
        );
        if most > LIMIT {
            over.push(format!("{name}: {most} bytes"));
        }
    }
    assert!(
        over.is_empty(),
        "a greedy decision held more than 256 MiB: {over:?}"
    );
}
