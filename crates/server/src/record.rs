//! A game's record as a game file: the file `battlemat verify` and `replay --verify` read
//! (docs/files.md), with the server's dice in it.
//!
//! Its `origin` is the built-in scenario and the options the game was made with; its
//! `dice` is `{"server": {"commitment", "seat_seeds", "seed"}}` — the published commitment,
//! each seat's own seed, and the server seed once the game is over (never before); its
//! `digest` is the hash chain over the header (ruleset, origin, dice without the seed, setup)
//! and every step, computed as the command line computes it, so the digest a player read
//! during the game is the one in the finished record.

use crate::Live;
use battlemat_core::Chain;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The game file format the record is written in (the command line's `FORMAT`).
pub const FORMAT: u32 = 2;

/// The dice as the digest's header holds them: fixed for the whole game (no seed).
fn dice_fixed(live: &Live) -> Value {
    if live.row.dice == "table" {
        json!("table")
    } else {
        json!({"server": {"commitment": live.row.commitment, "seat_seeds": live.seat_seeds()}})
    }
}

pub(crate) fn game_file(live: &Live) -> Value {
    let options: BTreeMap<String, String> =
        serde_json::from_str(&live.row.options).unwrap_or_default();
    let origin = json!({"builtin": {"scenario": live.row.scenario, "options": options}});
    let setup: Value = serde_json::from_str(&live.row.setup).unwrap_or(Value::Null);
    let fixed = dice_fixed(live);
    let header = json!({
        "ruleset": live.row.ruleset,
        "origin": origin,
        "dice": fixed,
        "setup": setup,
    });
    let mut chain = Chain::start(&header);
    for step in &live.steps {
        chain = chain.then(&serde_json::to_value(step).unwrap_or(Value::Null));
    }
    let mut dice = fixed;
    if live.row.over && live.row.dice != "table" {
        dice["server"]["seed"] = json!(live.row.server_seed);
    }
    json!({
        "battlemat": FORMAT,
        "ruleset": live.row.ruleset,
        "version": live.row.version,
        "origin": origin,
        "dice": dice,
        "digest": chain.hex(),
        "setup": setup,
        "steps": live.steps,
    })
}
