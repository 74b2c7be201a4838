//! The draw of a search's random playout (`Game::playout_action`, `src/candidates.rs`): a
//! unit first, then one of its listed actions. The conformance kit checks that every draw is
//! listed; this checks the converse, that every listed action of a turn can be drawn, so the
//! two-step draw narrows nothing a player could do.

mod common;

use battlemat_core::{Game, Roller};
use common::*;
use std::collections::HashSet;

#[test]
fn every_action_of_a_turns_listing_can_be_drawn_by_a_playout() {
    let mut g = open(&[&["gm", "gm", "guncannon"], &["zaku", "dom"]]);
    begin(&mut g, 0);
    put(&mut g, 0, 2.0, 2.0);
    put(&mut g, 1, 2.6, 2.0);
    put(&mut g, 2, 2.0, 2.6);
    put(&mut g, 3, 3.2, 3.2);
    put(&mut g, 4, 2.9, 2.4);
    let listed: HashSet<_> = g.legal_actions().into_iter().collect();
    assert!(listed.len() > 20, "a rich turn: {} actions", listed.len());
    let mut roller = Roller::new(11, 0);
    let mut buf = Vec::new();
    let mut drawn = HashSet::new();
    for _ in 0..40 * listed.len() {
        let a = g.playout_action(&mut roller, &mut buf).expect("a draw");
        assert!(listed.contains(&a), "{a} is not listed");
        assert!(
            buf.len() < listed.len(),
            "a draw lists one unit's actions, not the army's"
        );
        drawn.insert(a);
    }
    let missed: Vec<String> = listed.difference(&drawn).map(|a| a.to_string()).collect();
    assert!(missed.is_empty(), "never drawn: {missed:?}");
}
