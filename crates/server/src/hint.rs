//! Hints: the AI's best candidates for a seat's decision, with their values.
//!
//! The registry values every legal action with the greedy player (the game named nowhere
//! here); this module ranks them, names them as the action list does, and answers the top
//! few. Rejected alternative: an MCTS hint with visit shares — stronger, but its time
//! budget would hold a worker for seconds on every request; the greedy value is bounded
//! (see `battlemat-ai`) and means the same in every game (the seat's expected evaluation).

use super::extract::Seated;
use super::{ApiError, ApiResult};
use axum::Json;
use axum::extract::Query;
use axum::http::StatusCode;
use battlemat_core::ToAct;
use serde::Deserialize;
use serde_json::{Value, json};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct HintQuery {
    /// How many candidates (default 5, at most 50).
    top: Option<usize>,
}

/// `GET /api/games/{id}/hint` (a seat's token): the AI's best candidates for the seat's
/// decision, each with the greedy player's value of it for that seat (its expected
/// evaluation after the action's dice), best first; empty when it is not the seat's
/// decision. Thought out on a blocking thread from a copy of the state, so the game's lock
/// is held only to copy it.
#[utoipa::path(get, path = "/api/games/{id}/hint", tag = "play",
    params(("id" = String, Path, description = "the game"),
        ("top" = Option<usize>, Query, description = "how many candidates (default 5, at most 50)")),
    responses((status = 200, description = "`{seq, by, candidates: [{text, label, action, value}]}`, best first; empty off-turn"),
        (status = 401, description = "no token"), (status = 403, description = "not a seat of this game"),
        (status = 404, description = "no such game")),
    security(("token" = [])))]
pub(crate) async fn get_hint(Query(q): Query<HintQuery>, game: Seated) -> ApiResult<Json<Value>> {
    let (state, seq, ruleset, seat) = {
        let Seated { live, seat, .. } = game;
        (
            live.state.clone_box(),
            live.seq(),
            live.row.ruleset.clone(),
            seat,
        )
    };
    if !matches!(state.to_act(), ToAct::Decide { seat: s, .. } if s == seat) {
        return Ok(Json(
            json!({ "seq": seq, "by": "greedy", "candidates": [] }),
        ));
    }
    let top = q.top.unwrap_or(5).clamp(1, 50);
    let internal = |e: String| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e);
    let ai = battlemat_rulesets::visit(&ruleset, battlemat_ai::AiFor)
        .map_err(|e| internal(e.to_string()))?;
    let candidates = tokio::task::spawn_blocking(move || {
        // The hint's own dice (where greedy samples): fixed by the step, so asking twice
        // gives the same answer; they are not the game's dice.
        let mut roller = battlemat_dice::Roller::new(seq as u64, 0x68696e74);
        let listed = state.legal_actions();
        ai.hint(state.as_ref(), &mut roller)
            .unwrap_or_default()
            .into_iter()
            .take(top)
            .map(|(action, value)| {
                let l = listed.iter().find(|l| l.json == action);
                json!({
                    "text": l.map(|l| l.text.clone()),
                    "label": l.map(|l| l.label.clone()),
                    "action": action,
                    "value": value,
                })
            })
            .collect::<Vec<_>>()
    })
    .await
    .map_err(|e| internal(e.to_string()))?;
    Ok(Json(
        json!({ "seq": seq, "by": "greedy", "candidates": candidates }),
    ))
}
