//! The AI players for a game whose type the caller does not know: the server's AI seats,
//! the command line's `play --ai`, the lab's runs.
//!
//! [`AiFor`] is a [`GameVisitor`]: the registry calls it with a game's concrete type and it
//! returns that game's AI machinery behind one object-safe trait, [`DynAi`], that speaks
//! JSON actions and typed errors. So the registry does not depend on this crate, and this
//! crate names no game.
//!
//! Rejected: a struct of function pointers in the registry (what there was before). It
//! tied the registry to the AI, and every error was a `String`.

use crate::{Played, Player, PlayerKind};
use battlemat_core::dynamic::{DynState, Erased, GameVisitor, setup_from_json};
use battlemat_core::{Game, Illegal, SetupError};
use battlemat_dice::Roller;
use serde_json::Value;

/// Why a whole game between AI players could not be played.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlayError {
    /// The setup does not read or does not start a game.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// The game went on past the run's limit of steps (every game must end).
    #[error("game did not end within {max_steps} steps")]
    TooLong { max_steps: usize },
    /// A step the players or the dice took was refused: a bug in the game or the player.
    #[error("step {index}: {error}")]
    Refused { index: usize, error: Illegal },
    /// The game broke its own contract (over without a result, a seat to decide with no
    /// legal action, a seat beyond its seats).
    #[error("{0}")]
    Broken(&'static str),
}

/// A state handed to the AI of another game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a state of another game given to the AI of {ai}")]
pub struct WrongGame {
    /// The AI's game (its state type).
    pub ai: &'static str,
}

/// A setup read and checked once: its new game, cloned for each game played from it.
pub trait Prepared: Send + Sync {
    /// Play a whole game between AI players, dice from `roller`.
    fn play(
        &self,
        players: &[PlayerKind],
        roller: &mut Roller,
        max_steps: usize,
    ) -> Result<Played, PlayError>;
}

/// An AI player of one game, erased: actions as JSON. It keeps what it learnt between moves
/// (an MCTS player's trees).
pub trait DynPlayer: Send {
    /// The action for the deciding seat of `state`: `None` when no seat decides.
    fn choose(
        &mut self,
        state: &dyn DynState,
        roller: &mut Roller,
    ) -> Result<Option<Value>, WrongGame>;
}

/// One game's AI machinery, erased.
pub trait DynAi: Send + Sync {
    /// An AI's action for the deciding seat, as JSON (a player with no memory of earlier
    /// moves; [`DynAi::new_player`] keeps one).
    fn choose(
        &self,
        state: &dyn DynState,
        kind: PlayerKind,
        roller: &mut Roller,
    ) -> Result<Option<Value>, WrongGame>;
    /// An AI player for a whole game.
    fn new_player(&self, kind: PlayerKind) -> Box<dyn DynPlayer>;
    /// Play a whole game between AI players from a setup (JSON).
    fn play(
        &self,
        setup: &Value,
        players: &[PlayerKind],
        roller: &mut Roller,
        max_steps: usize,
    ) -> Result<Played, PlayError>;
    /// Read and check a setup (JSON) once, for many games from it (the simulation lab).
    fn prepare(&self, setup: &Value) -> Result<Box<dyn Prepared>, PlayError>;
    /// A hint for the deciding seat: every legal action (JSON) with the greedy player's value
    /// of it for that seat, best first (empty when no seat decides).
    fn hint(
        &self,
        state: &dyn DynState,
        roller: &mut Roller,
    ) -> Result<Vec<(Value, f64)>, WrongGame>;
}

/// The visitor that makes a game's [`DynAi`].
#[derive(Clone, Copy, Debug, Default)]
pub struct AiFor;

impl GameVisitor for AiFor {
    type Output = Box<dyn DynAi>;
    fn visit<G: Game>(self) -> Box<dyn DynAi> {
        Box::new(AiOf::<G>(std::marker::PhantomData))
    }
}

struct AiOf<G>(std::marker::PhantomData<fn() -> G>);

fn state_of<G: Game>(state: &dyn DynState) -> Result<&G, WrongGame> {
    state
        .as_any()
        .downcast_ref::<Erased<G>>()
        .map(|e| &e.0)
        .ok_or(WrongGame {
            ai: std::any::type_name::<G>(),
        })
}

fn action_json<G: Game>(a: G::Action) -> Option<Value> {
    // An action type that is not JSON is a bug in its game; the conformance kit checks every
    // listed action round-trips, so this is never `None` for a game that passes it.
    serde_json::to_value(a).ok()
}

impl<G: Game> DynPlayer for Player<G> {
    fn choose(
        &mut self,
        state: &dyn DynState,
        roller: &mut Roller,
    ) -> Result<Option<Value>, WrongGame> {
        let g = state_of::<G>(state)?;
        Ok(Player::choose(self, g, roller).and_then(action_json::<G>))
    }
}

struct NewGame<G>(G);

impl<G: Game> Prepared for NewGame<G> {
    fn play(
        &self,
        players: &[PlayerKind],
        roller: &mut Roller,
        max_steps: usize,
    ) -> Result<Played, PlayError> {
        crate::play_from(self.0.clone(), players, roller, max_steps)
    }
}

impl<G: Game> DynAi for AiOf<G> {
    fn choose(
        &self,
        state: &dyn DynState,
        kind: PlayerKind,
        roller: &mut Roller,
    ) -> Result<Option<Value>, WrongGame> {
        let g = state_of::<G>(state)?;
        Ok(crate::choose(kind, g, roller).and_then(action_json::<G>))
    }
    fn new_player(&self, kind: PlayerKind) -> Box<dyn DynPlayer> {
        Box::new(Player::<G>::new(kind))
    }
    fn play(
        &self,
        setup: &Value,
        players: &[PlayerKind],
        roller: &mut Roller,
        max_steps: usize,
    ) -> Result<Played, PlayError> {
        crate::play::<G>(&setup_from_json::<G>(setup)?, players, roller, max_steps)
    }
    fn prepare(&self, setup: &Value) -> Result<Box<dyn Prepared>, PlayError> {
        let state = G::new_game(&setup_from_json::<G>(setup)?)?;
        Ok(Box::new(NewGame(state)))
    }
    fn hint(
        &self,
        state: &dyn DynState,
        roller: &mut Roller,
    ) -> Result<Vec<(Value, f64)>, WrongGame> {
        let g = state_of::<G>(state)?;
        let (values, _) = crate::Greedy::default().values(g, roller);
        let mut out: Vec<(Value, f64)> = values
            .into_iter()
            .filter_map(|(a, v)| Some((action_json::<G>(a)?, v)))
            .collect();
        // Best first; equal values keep the listing's order (a stable sort).
        out.sort_by(|a, b| b.1.total_cmp(&a.1));
        Ok(out)
    }
}
