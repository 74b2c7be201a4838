//! Step-through replay: the table as it stood after any step of a game.
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

use super::{ApiError, ApiResult, App, bearer, events_json};
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use battlemat_core::Viewer;
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReplayQuery {
    /// The number of steps played (0: the setup).
    at: i64,
}

pub(crate) async fn get_replay(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<ReplayQuery>,
    headers: HeaderMap,
) -> ApiResult<Json<Value>> {
    let slot = app.slot(&id)?;
    let (ruleset, setup, steps, viewer, total) = {
        let live = slot.live.lock().await;
        let viewer: Viewer = live.viewer_of(bearer(&headers)?.as_deref())?;
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
    let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let entry = battlemat_rulesets::get(&ruleset).map_err(internal)?;
    let setup: Value = serde_json::from_str(&setup).map_err(|e| internal(e.to_string()))?;
    let mut state = entry
        .ruleset
        .new_game(&setup)
        .map_err(|e| internal(e.to_string()))?;
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
