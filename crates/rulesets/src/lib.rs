//! The registry: the only crate that knows every game.
//!
//! Everything above it — the command line, the simulation lab, the server, the AI's erased
//! players — asks this crate for a game by id. It hands the game out in one of two ways:
//! erased, as a [`DynRuleset`] ([`get`], [`all`]), or typed, by calling a
//! [`GameVisitor`] with the game's concrete type ([`visit`], [`visit_all`]), so a front end
//! instantiates its own generic machinery (an AI player, a whole-game run) for the game
//! without naming it. Adding a game is one line in the `games!` list below.
//!
//! Architecture Invariant: the registry depends on core and the rules crates only — not on
//! the AI, the lab, the server or the command line. What they need for a game they build
//! with a visitor of their own.
//!
//! # Rejected alternatives
//!
//! An enum `AnyGame { Swtb(Swtb), SdEra(SdEra), … }` with a `match` in every method is the
//! usual way, and avoids dynamic dispatch, but every new game then edits every match in
//! every front end. A struct of function pointers per game (what this crate held before)
//! spoke JSON and `String` errors and made the registry depend on every crate whose
//! machinery it carried. With one generic visitor, nothing outside this file changes.

pub use battlemat_core::dynamic::{DynRuleset, EraseRuleset, GameVisitor, UnknownGame};

/// The games, in a fixed order: `id => type`. A command pays only for the game it asks for:
/// nothing here reads a game's data (SWTB's unit catalog, the scenario files) until a visitor
/// or the erased rule set uses it.
macro_rules! games {
    ($($id:literal => $game:ty),+ $(,)?) => {
        /// The ids of every game, in the registry's order.
        pub const IDS: &[&str] = &[$($id),+];

        /// Run `visitor` on the game `id`, typed.
        pub fn visit<V: GameVisitor>(id: &str, visitor: V) -> Result<V::Output, UnknownGame> {
            match id {
                $($id => Ok(visitor.visit::<$game>()),)+
                _ => Err(UnknownGame {
                    id: id.to_string(),
                    known: ids(),
                }),
            }
        }

        /// Run `visitor` on every game, in the registry's order.
        pub fn visit_all<V: GameVisitor + Clone>(visitor: V) -> Vec<V::Output> {
            vec![$(visitor.clone().visit::<$game>()),+]
        }
    };
}

games! {
    "swtb" => battlemat_swtb::Swtb,
    "sd-era" => battlemat_sd_era::SdEra,
    "abaoaqu" => battlemat_abaoaqu::AbaoAqu,
    "ms-d20" => battlemat_ms_d20::MsD20,
    "serm" => battlemat_serm::Serm,
}

/// The ids of every game.
pub fn ids() -> Vec<String> {
    IDS.iter().map(|id| id.to_string()).collect()
}

/// A game's rule set by id, erased, or an error listing the ids there are.
pub fn get(id: &str) -> Result<Box<dyn DynRuleset>, UnknownGame> {
    visit(id, EraseRuleset)
}

/// Every game's rule set, erased, in a fixed order.
pub fn all() -> Vec<Box<dyn DynRuleset>> {
    visit_all(EraseRuleset)
}

#[cfg(test)]
mod tests {
    use super::*;
    use battlemat_core::Game;

    /// The registry's ids are the games' own, in its order.
    #[test]
    fn every_id_is_its_games_id() {
        let from_all: Vec<String> = all().iter().map(|r| r.info().id).collect();
        assert_eq!(from_all, ids());
        for id in IDS {
            assert_eq!(get(id).unwrap().info().id, *id);
        }
    }

    #[test]
    fn an_unknown_game_is_refused_with_the_games_there_are() {
        let e = get("chess").err().unwrap();
        assert_eq!(e.id, "chess");
        assert_eq!(e.known, ids());
        assert!(e.to_string().contains("no game \"chess\"") && e.to_string().contains("swtb"));
    }

    /// A visitor sees each game's own type: its typed info is the erased one's.
    #[derive(Clone)]
    struct Seats;
    impl GameVisitor for Seats {
        type Output = (String, u8);
        fn visit<G: Game>(self) -> (String, u8) {
            let info = G::info();
            (info.id, info.min_seats)
        }
    }

    #[test]
    fn every_game_sets_up_every_scenario_through_a_visitor_and_erased() {
        for ((id, seats), r) in visit_all(Seats).into_iter().zip(all()) {
            let info = r.info();
            assert_eq!((id, seats), (info.id.clone(), info.min_seats));
            for s in &info.scenarios {
                let setup = r
                    .setup(&s.id, &Default::default())
                    .unwrap_or_else(|e| panic!("{} {}: {e}", info.id, s.id));
                r.new_game(&setup)
                    .unwrap_or_else(|e| panic!("{} {}: {e}", info.id, s.id));
            }
        }
    }
}
