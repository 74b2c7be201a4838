//! A game's first decision in a scenario, its opening dice rolled (seeded): where the
//! search tests start. Shared by `tests/mcts.rs` and `tests/rollouts.rs`.

use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use std::collections::BTreeMap;

pub fn first_decision<G: Game>(scenario: &str) -> G {
    let setup = G::setup(scenario, &BTreeMap::new()).unwrap();
    let mut g = G::new_game(&setup).unwrap();
    let mut r = Roller::new(7, 0);
    while let Next::Chance(o) = g.next() {
        g.apply(&Step::Roll {
            value: o.roll(&mut r),
        })
        .unwrap();
    }
    g
}
