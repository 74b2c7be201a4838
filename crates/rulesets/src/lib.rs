//! The registry: the only crate that knows every game.
//!
//! Everything above it — the command line, the simulation lab, the server — asks this
//! crate for a game by id and gets an [`Entry`]: the erased rule set plus the typed
//! machinery (AI players, whole-game runs) instantiated for that game's concrete type, as
//! plain function pointers. Adding a game is one line in `GAMES`.
//!
//! # Rejected alternative
//!
//! An enum `AnyGame { Swtb(Swtb), SdEra(SdEra), … }` with a `match` in every method is the
//! usual way, and avoids dynamic dispatch, but every new game then edits every match in
//! every front end. With one generic [`entry`] function, nothing outside this file changes.

use battlemat_ai::{Played, PlayerKind};
use battlemat_core::Game;
use battlemat_core::dynamic::{DynRuleset, DynState, Erased, RulesetOf};
use battlemat_dice::Roller;
use serde_json::Value;

/// A game, as the front ends see it.
pub struct Entry {
    pub ruleset: Box<dyn DynRuleset>,
    /// An AI's action for the deciding seat, as JSON (a player with no memory of earlier
    /// moves; [`Entry::new_player`] keeps one).
    pub choose: fn(&dyn DynState, PlayerKind, &mut Roller) -> Option<Value>,
    /// An AI player for a whole game, keeping what it learnt between moves (an MCTS
    /// player's trees).
    pub new_player: fn(PlayerKind) -> Box<dyn DynPlayer>,
    /// Play a whole game between AI players from a setup (JSON).
    pub play: fn(&Value, &[PlayerKind], &mut Roller, usize) -> Result<Played, String>,
    /// Read and check a setup (JSON) once, for many games from it (the simulation lab).
    pub prepare: fn(&Value) -> Result<Box<dyn Prepared>, String>,
    /// What each seat of a setup (JSON) fields, under the game's points rules
    /// ([`Game::armies`]); `None` without them.
    pub armies: fn(&Value) -> Result<Option<battlemat_core::Armies>, String>,
    /// The setup (JSON) with armies drawn at random within its points rules
    /// ([`Game::random_armies`]); `None` without them.
    pub random_armies: fn(&Value, &mut Roller) -> Result<Option<Value>, String>,
    /// A hint for the deciding seat: every legal action (JSON) with the greedy player's value
    /// of it for that seat, best first (empty when no seat decides).
    pub hint: fn(&dyn DynState, &mut Roller) -> Vec<(Value, f64)>,
}

/// A setup read and checked once: its new game, cloned for each game played from it.
pub trait Prepared: Send + Sync {
    /// Play a whole game between AI players, dice from `roller`.
    fn play(
        &self,
        players: &[PlayerKind],
        roller: &mut Roller,
        max_steps: usize,
    ) -> Result<Played, String>;
}

/// An AI player of one game, erased: actions as JSON.
pub trait DynPlayer: Send {
    /// The action for the deciding seat of `state` (a state of this player's game).
    fn choose(&mut self, state: &dyn DynState, roller: &mut Roller) -> Option<Value>;
}

impl<G: Game> DynPlayer for battlemat_ai::Player<G> {
    fn choose(&mut self, state: &dyn DynState, roller: &mut Roller) -> Option<Value> {
        let g = &state.as_any().downcast_ref::<Erased<G>>()?.0;
        let a = battlemat_ai::Player::choose(self, g, roller)?;
        serde_json::to_value(a).ok()
    }
}

struct NewGame<G>(G);

impl<G: Game> Prepared for NewGame<G> {
    fn play(
        &self,
        players: &[PlayerKind],
        roller: &mut Roller,
        max_steps: usize,
    ) -> Result<Played, String> {
        battlemat_ai::play_from(self.0.clone(), players, roller, max_steps)
    }
}

fn entry<G: Game>() -> Entry {
    fn choose<G: Game>(s: &dyn DynState, kind: PlayerKind, r: &mut Roller) -> Option<Value> {
        let g = &s.as_any().downcast_ref::<Erased<G>>()?.0;
        let a = battlemat_ai::choose(kind, g, r)?;
        serde_json::to_value(a).ok()
    }
    fn play<G: Game>(
        setup: &Value,
        players: &[PlayerKind],
        r: &mut Roller,
        max_steps: usize,
    ) -> Result<Played, String> {
        let setup: G::Setup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("malformed setup: {e}"))?;
        battlemat_ai::play::<G>(&setup, players, r, max_steps)
    }
    fn prepare<G: Game>(setup: &Value) -> Result<Box<dyn Prepared>, String> {
        let setup: G::Setup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("malformed setup: {e}"))?;
        let state = G::new_game(&setup).map_err(|e| e.to_string())?;
        Ok(Box::new(NewGame(state)))
    }
    fn armies<G: Game>(setup: &Value) -> Result<Option<battlemat_core::Armies>, String> {
        let setup: G::Setup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("malformed setup: {e}"))?;
        Ok(G::armies(&setup))
    }
    fn random_armies<G: Game>(setup: &Value, r: &mut Roller) -> Result<Option<Value>, String> {
        let setup: G::Setup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("malformed setup: {e}"))?;
        match G::random_armies(&setup, r) {
            None => Ok(None),
            Some(Err(e)) => Err(e.to_string()),
            Some(Ok(s)) => serde_json::to_value(s).map(Some).map_err(|e| e.to_string()),
        }
    }
    fn hint<G: Game>(s: &dyn DynState, r: &mut Roller) -> Vec<(Value, f64)> {
        let Some(g) = s.as_any().downcast_ref::<Erased<G>>() else {
            return Vec::new();
        };
        let (values, _) = battlemat_ai::Greedy::default().values(&g.0, r);
        let mut out: Vec<(Value, f64)> = values
            .into_iter()
            .filter_map(|(a, v)| Some((serde_json::to_value(a).ok()?, v)))
            .collect();
        // Best first; equal values keep the listing's order (a stable sort).
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        out
    }
    fn new_player<G: Game>(kind: PlayerKind) -> Box<dyn DynPlayer> {
        Box::new(battlemat_ai::Player::<G>::new(kind))
    }
    Entry {
        ruleset: Box::new(RulesetOf::<G>::default()),
        choose: choose::<G>,
        new_player: new_player::<G>,
        armies: armies::<G>,
        random_armies: random_armies::<G>,
        hint: hint::<G>,
        play: play::<G>,
        prepare: prepare::<G>,
    }
}

/// Every game's id and how to make its entry, in a fixed order. A command pays only for
/// the game it asks for: [`get`] builds one entry, and nothing here reads a game's data
/// (SWTB's unit catalog, the scenario files) until that game is used.
type MakeEntry = fn() -> Entry;
const GAMES: &[(&str, MakeEntry)] = &[
    ("swtb", entry::<battlemat_swtb::Swtb>),
    ("sd-era", entry::<battlemat_sd_era::SdEra>),
    ("abaoaqu", entry::<battlemat_abaoaqu::AbaoAqu>),
    ("ms-d20", entry::<battlemat_ms_d20::MsD20>),
    ("serm", entry::<battlemat_serm::Serm>),
];

/// Every game, in a fixed order.
pub fn all() -> Vec<Entry> {
    GAMES.iter().map(|(_, make)| make()).collect()
}

/// The ids of every game.
pub fn ids() -> Vec<String> {
    GAMES.iter().map(|(id, _)| id.to_string()).collect()
}

/// A game by id, or an error listing the ids there are.
pub fn get(id: &str) -> Result<Entry, String> {
    GAMES
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(_, make)| make())
        .ok_or_else(|| format!("no game {id:?}; games are {}", ids().join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Foundation's AI players can finish every scenario of every game: the greedy
    /// player against a random one, from a seeded roller.
    #[test]
    fn greedy_and_random_finish_every_scenario() {
        for e in all() {
            let info = e.ruleset.info();
            for s in &info.scenarios {
                // A game with a limit among its options (an option that can be switched off,
                // "none": rounds, turns, melees, activations) plays its shortest — the test
                // is of finishing, not of long games, and names no game's options.
                let mut options = std::collections::BTreeMap::new();
                for o in info
                    .options
                    .iter()
                    .filter(|o| o.values.iter().any(|v| v == "none"))
                {
                    let shortest = o.values.iter().filter_map(|v| v.parse::<u32>().ok()).min();
                    if let Some(n) = shortest {
                        options.insert(o.key.clone(), n.to_string());
                    }
                }
                let setup = e.ruleset.setup(&s.id, &options).unwrap();
                let p = (e.play)(
                    &setup,
                    &[PlayerKind::Greedy, PlayerKind::Random],
                    &mut Roller::new(7, 0),
                    100_000,
                )
                .unwrap_or_else(|err| panic!("{} {}: {err}", info.id, s.id));
                assert_eq!(
                    p.result.ranks.len(),
                    s.min_seats as usize,
                    "{} {}",
                    info.id,
                    s.id
                );
            }
        }
    }

    /// The registry's ids are the games' own.
    #[test]
    fn every_id_is_its_games_id() {
        for (id, make) in GAMES {
            assert_eq!(make().ruleset.info().id, *id);
        }
    }

    #[test]
    fn every_game_is_found_by_id_and_plays() {
        for id in ids() {
            let e = get(&id).unwrap();
            let info = e.ruleset.info();
            let scen = &info.scenarios[0].id;
            // Random players under the game's safety limit (they might never end a game).
            let options = info.safety_limit.clone().into_iter().collect();
            let setup = e.ruleset.setup(scen, &options).unwrap();
            let p = (e.play)(
                &setup,
                &[PlayerKind::Random],
                &mut Roller::new(1, 0),
                100_000,
            )
            .unwrap();
            assert_eq!(p.result.ranks.len(), info.min_seats as usize);
            // A prepared setup plays the same game, from the same dice.
            let prepared = (e.prepare)(&setup).unwrap();
            let again = prepared
                .play(&[PlayerKind::Random], &mut Roller::new(1, 0), 100_000)
                .unwrap();
            assert_eq!(again, p);
        }
        assert!(get("chess").err().is_some_and(|e| e.contains("swtb")));
    }
}
