//! A game as the command line uses it: its erased rule set and its AI players, both from
//! the registry (the AI's by [`battlemat_ai::AiFor`], so the registry knows no AI).

use battlemat_ai::{AiFor, DynAi};
use battlemat_core::Game;
use battlemat_core::dynamic::{DynRuleset, GameVisitor, UnknownGame};

/// One game: the rules and the AI.
pub struct Entry {
    pub ruleset: Box<dyn DynRuleset>,
    pub ai: Box<dyn DynAi>,
}

#[derive(Clone, Copy)]
struct Both;

impl GameVisitor for Both {
    type Output = Entry;
    fn visit<G: Game>(self) -> Entry {
        Entry {
            ruleset: battlemat_core::dynamic::EraseRuleset.visit::<G>(),
            ai: AiFor.visit::<G>(),
        }
    }
}

/// A game by id, or an error listing the ids there are.
pub fn get(id: &str) -> Result<Entry, UnknownGame> {
    battlemat_rulesets::visit(id, Both)
}

/// Every game, in the registry's order.
pub fn all() -> Vec<Entry> {
    battlemat_rulesets::visit_all(Both)
}
