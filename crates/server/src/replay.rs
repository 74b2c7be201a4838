//! Step-through replay (the table as it stood after any step of a game) and the dice of a
//! finished game laid out for checking.
//!
//! `GET /api/games/{id}/replay?at=N` rebuilds the game from its setup through its first `N`
//! stored steps and answers the scene, its SVG and step `N`'s events, as the request's
//! viewer (a seat's token or a spectator) would have seen them then. The browser's replay
//! controls walk a finished game with it; nothing here knows a rule, the registry's game
//! does the replaying.
//!
//! Rejected alternative: sending the client the record and letting it replay. A client holds
//! no rule of any game, so it cannot; and a snapshot stored per step would multiply the
//! database by the game's length for a view asked for rarely. Replaying `N` steps costs
//! milliseconds, done after the game's lock is released.

use super::extract::Viewing;
use super::{ApiError, ApiResult, App, events_json};
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use battlemat_core::dynamic::DynState;
use battlemat_core::{Step, ToAct};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

/// A stored game's new state, from its ruleset and setup (both stored by the server, so a
/// failure here is the server's: 500).
fn new_game(ruleset: &str, setup: &str) -> ApiResult<Box<dyn DynState>> {
    let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let rules = battlemat_rulesets::get(ruleset).map_err(|e| internal(e.to_string()))?;
    let setup: Value = serde_json::from_str(setup).map_err(|e| internal(e.to_string()))?;
    rules.new_game(&setup).map_err(|e| internal(e.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReplayQuery {
    /// The number of steps played (0: the setup).
    at: i64,
}

#[utoipa::path(get, path = "/api/games/{id}/replay", tag = "play",
    params(("id" = String, Path, description = "the game"),
        ("at" = i64, Query, description = "the number of steps played (0: the setup)")),
    responses((status = 200, description = "`{at, of, step, events, to_act, scene, svg}` after step `at`, as the viewer saw it"),
        (status = 403, description = "not a seat of this game"), (status = 404, description = "no such game"),
        (status = 422, description = "`at` outside the game")),
    security((), ("token" = [])))]
pub(crate) async fn get_replay(
    Query(q): Query<ReplayQuery>,
    game: Viewing,
) -> ApiResult<Json<Value>> {
    let (ruleset, setup, steps, viewer, total) = {
        let Viewing { live, viewer, .. } = game;
        if q.at < 0 || q.at > live.seq() {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "at={} is outside the game: it has steps 0 to {}",
                    q.at,
                    live.seq()
                ),
            ));
        }
        (
            live.row.ruleset.clone(),
            live.row.setup.clone(),
            live.steps[..q.at as usize].to_vec(),
            viewer,
            live.seq(),
        )
    };
    let mut state = new_game(&ruleset, &setup)?;
    let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let mut last = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let seen = state
            .apply_seen(step)
            .map_err(|e| internal(format!("step {} does not replay: {e}", i + 1)))?;
        last = seen.for_viewer(viewer).to_vec();
    }
    let scene = state.scene(viewer);
    Ok(Json(json!({
        "at": q.at,
        "of": total,
        "step": steps.last(),
        "events": events_json(&last),
        "to_act": state.to_act(),
        "svg": battlemat_render::svg(&scene),
        "scene": scene,
    })))
}

/// `GET /api/games/{id}/dice`: every chance point of a finished seeded game, for checking
/// the dice in the browser — its index, what was rolled, its outcomes and weights as the
/// game stated them, and the face the server drew — with the revealed seed, the seats'
/// seeds and the commitment. The page recomputes each face from the seeds (HMAC-SHA256, as
/// [`crate::dice::face`]) and the seed's SHA-256 against the commitment it saw at the start;
/// `battlemat verify` of the record checks the same and also replays the rules that gave
/// the weights.
#[utoipa::path(get, path = "/api/games/{id}/dice", tag = "play",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "`{dice_commitment, server_seed, seat_seeds, points: [{seq, index, what, outcomes, face}]}`"),
        (status = 404, description = "no such game"),
        (status = 409, description = "not over yet, or table dice")))]
pub(crate) async fn get_dice(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    let slot = app.slot(&id)?;
    let (row, steps, seat_seeds) = {
        let live = slot.live.lock().await;
        if live.row.dice != "seeded" {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this game's dice were rolled at the table: there is no seed to check",
            ));
        }
        if !live.row.over {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the server's seed is revealed when the game is over",
            ));
        }
        (live.row.clone(), live.steps.clone(), live.seat_seeds())
    };
    let mut state = new_game(&row.ruleset, &row.setup)?;
    let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let mut points = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        if let (ToAct::Chance(c), Step::Roll { value }) = (state.to_act(), step) {
            points.push(json!({
                "seq": i + 1,
                "index": points.len(),
                "what": c.what,
                "outcomes": c.outcomes,
                "face": value,
            }));
        }
        state
            .apply_seen(step)
            .map_err(|e| internal(format!("step {} does not replay: {e}", i + 1)))?;
    }
    Ok(Json(json!({
        "dice_commitment": row.commitment,
        "server_seed": row.server_seed,
        "seat_seeds": seat_seeds,
        "points": points,
    })))
}
