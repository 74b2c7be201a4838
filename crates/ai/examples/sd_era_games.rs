//! Play random SD ERA games on one mission and report games per second and steps per game
//! (a quick look; the measured figures come from `cargo bench`).
use battlemat_ai::{PlayerKind, play};
use battlemat_core::Game;
use battlemat_dice::Roller;
use battlemat_sd_era::SdEra;
use std::collections::BTreeMap;

fn main() {
    let mission = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "shooting_gallery".into());
    let n: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(500);
    let setup = SdEra::setup(&mission, &BTreeMap::new()).unwrap();
    let start = std::time::Instant::now();
    let (mut steps, mut decisions) = (0, 0);
    for seed in 0..n {
        let mut r = Roller::new(seed, 0);
        let p = play::<SdEra>(&setup, &[PlayerKind::Random], &mut r, 1_000_000).unwrap();
        steps += p.steps;
        decisions += p.decisions;
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{mission}: {:.0} games/s, {} steps and {} decisions a game",
        n as f64 / t,
        steps as u64 / n,
        decisions as u64 / n
    );
}
