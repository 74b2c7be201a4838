//! Play random SERM games of one scenario and report games per second and steps
//! per game (a quick look; the measured figures come from `cargo bench`).
use battlemat_ai::{PlayerKind, play};
use battlemat_core::Game;
use battlemat_dice::Roller;
use battlemat_serm::Serm;
use std::collections::BTreeMap;

fn main() {
    let scenario = std::env::args().nth(1).unwrap_or_else(|| "skirmish".into());
    let n: u64 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let setup = Serm::setup(&scenario, &BTreeMap::new()).unwrap();
    let start = std::time::Instant::now();
    let (mut steps, mut decisions) = (0, 0);
    let mut wins = [0u32; 3];
    for seed in 0..n {
        let mut r = Roller::new(seed, 0);
        let p = play::<Serm>(&setup, &[PlayerKind::Random], &mut r, 1_000_000).unwrap();
        steps += p.steps;
        decisions += p.decisions;
        match p.result.ranks.as_slice() {
            [1, 2] => wins[0] += 1,
            [2, 1] => wins[1] += 1,
            _ => wins[2] += 1,
        }
    }
    let t = start.elapsed().as_secs_f64();
    println!(
        "{scenario}: {:.0} games/s, {} steps and {} decisions a game; Blue {} Red {} drawn {}",
        n as f64 / t,
        steps as u64 / n,
        decisions as u64 / n,
        wins[0],
        wins[1],
        wins[2]
    );
}
