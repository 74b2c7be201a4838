//! The MCTS player through the Game API: reproducible, legal, and stronger than chance.

use battlemat_ai::{Budget, Mcts, MctsConfig};
use battlemat_core::{Game, Next, Step};
use battlemat_dice::Roller;
use battlemat_swtb::Swtb;
use std::collections::BTreeMap;

fn first_decision<G: Game>(scenario: &str) -> G {
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

#[test]
fn a_search_reports_legal_actions_and_counts_its_iterations() {
    let g: Swtb = first_decision("outpost");
    let mut m = Mcts::<Swtb>::new(MctsConfig::new(Budget::Iterations(200)));
    let report = m.search(&g, &mut Roller::new(1, 0)).unwrap();
    assert_eq!(report.iterations, 200);
    let visits: u64 = report.actions.iter().map(|a| a.visits).sum();
    assert!(visits > 0 && visits <= 200, "{visits}");
    for a in &report.actions {
        g.check(&a.action).unwrap();
        assert!((-1.0..=1.0).contains(&a.value));
    }
}
