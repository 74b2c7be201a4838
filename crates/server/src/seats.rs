//! The lobby's seat endpoints: join the first free seat, leave (free the seat before the
//! start; after it forfeit, or hand the seat to an AI), claim a gone seat's resignation, and
//! a rematch with the seats turned round.

use crate::extract::{Checked, Posted, Seated};
use crate::limits::Client;
use crate::{
    ApiError, ApiResult, App, LiveSeat, OPEN, bad_request, bearer, body_or_empty, dice, drive,
    events_json, live_seat, new_live,
};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use battlemat_ai::PlayerKind;
use battlemat_core::{Seat, Step, Viewer};
use serde::Deserialize;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use store::SeatRow;

use crate::store;

/// A seat's own seed: up to 128 letters, digits, `-` and `_` (no `,`, which joins the
/// seeds, so no two lists of seeds read the same).
pub(crate) fn check_seed(seed: &str) -> ApiResult<()> {
    if seed.len() > 128
        || !seed
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "seed: at most 128 letters, digits, '-' or '_'",
        ));
    }
    Ok(())
}

#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct JoinBody {
    /// Your own seed for the dice (letters, digits, `-`, `_`; at most 128).
    #[serde(default)]
    pub seed: String,
}

/// Take the first free seat.
///
/// With `Authorization: Bearer TOKEN` (a token this server gave) the seat is that token's, so
/// one token can follow all its games on `/api/stream/event`; without, a new token is made.
/// When the last free seat is taken the game starts.
#[utoipa::path(post, path = "/api/games/{id}/join", tag = "lobby",
    params(("id" = String, Path, description = "the game")),
    request_body(content = JoinBody, description = "optional"),
    responses((status = 200, description = "`{seat, token?, invite, started}`"),
        (status = 400, description = "a malformed body or seed"),
        (status = 403, description = "a token this server did not give"),
        (status = 404, description = "no such game"),
        (status = 409, description = "no free seat, the game is over, or the token already holds a seat here"),
        (status = 429, description = "too many requests (Retry-After)")),
    security((), ("token" = [])))]
pub(crate) async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    client: Client,
    body: axum::body::Bytes,
) -> ApiResult<Json<Value>> {
    let req: JoinBody = body_or_empty(&body)?;
    check_seed(&req.seed)?;
    let token = bearer(&headers)?;
    app.limit(token.as_deref(), &client)?;
    let (token_out, hash) = match &token {
        Some(t) => {
            let h = dice::sha256_hex(t.as_bytes());
            if app.games_of(&h).is_empty() {
                return Err(ApiError::new(
                    StatusCode::FORBIDDEN,
                    "that token is not one this server gave; join without one to get one",
                ));
            }
            (None, h)
        }
        None => {
            let t = dice::random_hex(32)
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
            let h = dice::sha256_hex(t.as_bytes());
            (Some(t), h)
        }
    };
    let slot = app.slot(&id)?;
    let mut live = slot.live.lock().await;
    if live.row.over {
        return Err(ApiError::conflict("the game is over", live.seq()));
    }
    if live.seat_by_hash(&hash).is_some() {
        return Err(ApiError::conflict(
            "that token already holds a seat of this game",
            live.seq(),
        ));
    }
    let Some(&seat) = live.open_seats().first() else {
        return Err(ApiError::conflict("no seat is free", live.seq()));
    };
    let now = live.now();
    let s = LiveSeat {
        player: "human".into(),
        token_hash: Some(hash.clone()),
        seed: req.seed.clone(),
        ai: None,
        last_seen: AtomicI64::new(now),
    };
    app.store().update_seat(&id, &s.row(seat)).await?;
    live.seats[seat] = s;
    live.touch();
    app.tokens
        .lock()
        .expect("tokens lock")
        .entry(hash)
        .or_default()
        .insert(id.clone());
    let started = live.started();
    app.roll_dice(&mut live).await?;
    drop(live);
    app.wake(&slot);
    drive(app.clone(), id.clone());
    let mut out = json!({"seat": seat, "started": started});
    if let Some(t) = token_out {
        out["invite"] = json!(format!("{}/games/{id}#token={t}", app.config.base_url));
        out["token"] = json!(t);
    }
    Ok(Json(out))
}

#[derive(Deserialize, Default, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaveBody {
    /// "forfeit" (the default: your seat resigns) or an AI player's name to hand the seat
    /// to (`greedy`, `mcts:200`). Before the game starts the seat is simply freed.
    #[serde(default)]
    pub to: Option<String>,
}

impl Checked for LeaveBody {
    const OPTIONAL: bool = true;
    fn check(&self) -> ApiResult<()> {
        match self.to.as_deref() {
            None | Some("forfeit") => Ok(()),
            Some(to) => to
                .parse::<PlayerKind>()
                .map(|_| ())
                .map_err(|e| bad_request(format!("to: {e} (or \"forfeit\")"))),
        }
    }
}

/// Leave your seat.
#[utoipa::path(post, path = "/api/games/{id}/leave", tag = "lobby",
    params(("id" = String, Path, description = "the game")),
    request_body(content = LeaveBody, description = "optional"),
    responses((status = 200, description = "`{seat, left: \"freed\" | \"forfeit\" | AI name, seq}`"),
        (status = 400, description = "a malformed body or unknown AI"), (status = 401, description = "no token"),
        (status = 403, description = "not a seat of this game"), (status = 404, description = "no such game"),
        (status = 409, description = "the game is over"),
        (status = 429, description = "too many requests (Retry-After)")),
    security(("token" = [])))]
pub(crate) async fn leave(
    State(app): State<Arc<App>>,
    client: Client,
    posted: Posted<LeaveBody>,
) -> ApiResult<Json<Value>> {
    let Posted { body: req, game } = posted;
    let to = req.to.unwrap_or_else(|| "forfeit".into());
    let Seated {
        id,
        slot,
        mut live,
        seat,
        token,
    } = game.seated().await?;
    app.limit(token.as_deref(), &client)?;
    if live.row.over {
        return Err(ApiError::conflict("the game is over", live.seq()));
    }
    let i = seat as usize;
    let hash = live.seats[i].token_hash.clone().unwrap_or_default();
    let now = live.now();
    let left = if !live.started() {
        // Nothing has happened yet: the seat is free again.
        let s = LiveSeat {
            player: OPEN.into(),
            token_hash: None,
            seed: String::new(),
            ai: None,
            last_seen: AtomicI64::new(now),
        };
        app.store().update_seat(&id, &s.row(i)).await?;
        live.seats[i] = s;
        app.unindex_token(&hash, &id);
        "freed".to_string()
    } else if to == "forfeit" {
        app.commit(&mut live, Step::Resign { seat }, None).await?;
        to
    } else {
        let seed = live.seats[i].seed.clone();
        let s = live_seat(
            &live.row.ruleset,
            SeatRow {
                seat,
                player: to.clone(),
                token_hash: None,
                seed,
            },
            now,
        )
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        app.store().update_seat(&id, &s.row(i)).await?;
        live.seats[i] = s;
        app.unindex_token(&hash, &id);
        to
    };
    live.touch();
    let seq = live.seq();
    drop(live);
    app.wake(&slot);
    drive(app.clone(), id);
    Ok(Json(json!({"seat": seat, "left": left, "seq": seq})))
}

/// Claim: the seat the game waits on has been gone too long, and resigns.
///
/// Allowed when the game waits on another human seat (its decision, or its table die) that
/// has made no request for `gone_after` seconds (`presence` in `GET /api/games/{id}`).
#[utoipa::path(post, path = "/api/games/{id}/claim", tag = "lobby",
    params(("id" = String, Path, description = "the game")),
    responses((status = 200, description = "`{seq, resigned: SEAT, events}`"), (status = 401, description = "no token"),
        (status = 403, description = "not a seat of this game"), (status = 404, description = "no such game"),
        (status = 409, description = "nobody is gone (how long to wait), or the game waits on you or nobody"),
        (status = 429, description = "too many requests (Retry-After)")),
    security(("token" = [])))]
pub(crate) async fn claim(
    State(app): State<Arc<App>>,
    client: Client,
    game: Seated,
) -> ApiResult<Json<Value>> {
    let Seated {
        id,
        slot,
        mut live,
        seat: me,
        token,
    } = game;
    app.limit(token.as_deref(), &client)?;
    live.playing()?;
    let Some(gone) = live.awaits().filter(|&s| s != me) else {
        return Err(ApiError::conflict(
            "the game is not waiting on another seat: nobody to claim against",
            live.seq(),
        ));
    };
    let other = &live.seats[gone as usize];
    if !other.human() {
        return Err(ApiError::conflict(
            format!("seat {gone} is played by the server"),
            live.seq(),
        ));
    }
    let away = live.now() - other.last_seen.load(Ordering::Relaxed);
    let need = app.config.gone_after;
    if away < need {
        return Err(ApiError::conflict(
            format!(
                "seat {gone} was seen {away} s ago; it is gone after {need} s (claim again in {} s)",
                need - away
            ),
            live.seq(),
        ));
    }
    let ev = app
        .commit(&mut live, Step::Resign { seat: gone }, None)
        .await?;
    let seq = live.seq();
    drop(live);
    app.wake(&slot);
    drive(app.clone(), id);
    Ok(Json(json!({
        "seq": seq,
        "resigned": gone,
        "events": events_json(ev.for_viewer(Viewer::Seat(me))),
    })))
}

/// A rematch: a new game of the same scenario and options, its seats turned round by one
/// (a two-seat game's sides swapped), each player keeping its token and seed.
///
/// The first seat to ask makes it; every later ask (from any seat) answers with the same
/// game, which `GET /api/games/{id}` also names (`rematch`).
#[utoipa::path(post, path = "/api/games/{id}/rematch", tag = "lobby",
    params(("id" = String, Path, description = "the finished game")),
    responses((status = 201, description = "`{id, seat, seats, dice_commitment}`: the new game, your seat in it"),
        (status = 200, description = "the rematch already made, your seat in it"),
        (status = 401, description = "no token"), (status = 403, description = "not a seat of this game"),
        (status = 404, description = "no such game"), (status = 409, description = "the game is not over"),
        (status = 429, description = "too many requests (Retry-After)")),
    security(("token" = [])))]
pub(crate) async fn rematch(
    State(app): State<Arc<App>>,
    client: Client,
    game: Seated,
) -> ApiResult<Response> {
    let Seated {
        id,
        slot,
        mut live,
        seat: me,
        token,
    } = game;
    app.limit(token.as_deref(), &client)?;
    if !live.row.over {
        return Err(ApiError::conflict(
            "the game is not over: a rematch comes after it",
            live.seq(),
        ));
    }
    let n = live.seats.len();
    // New seat i is old seat i + 1: a player in old seat s sits at (s + n - 1) % n.
    let mine = ((me as usize) + n - 1) % n;
    if let Some(r) = live.row.rematch.clone()
        && let Ok(other) = app.slot(&r)
    {
        let o = other.live.lock().await;
        return Ok((
            StatusCode::OK,
            Json(json!({
                "id": r, "seat": mine,
                "seats": o.seats.iter().map(|s| s.player.clone()).collect::<Vec<_>>(),
                "dice_commitment": o.row.commitment,
            })),
        )
            .into_response());
    }
    let options: BTreeMap<String, String> =
        serde_json::from_str(&live.row.options).unwrap_or_default();
    let now = live.now();
    let mut seats = Vec::new();
    for i in 0..n {
        let old = &live.seats[(i + 1) % n];
        seats.push(
            live_seat(
                &live.row.ruleset,
                SeatRow {
                    seat: i as u8,
                    player: old.player.clone(),
                    token_hash: old.token_hash.clone(),
                    seed: old.seed.clone(),
                },
                now,
            )
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?,
        );
    }
    let new = new_live(
        &app,
        &live.row.ruleset,
        &live.row.scenario,
        &options,
        &live.row.dice,
        live.row.public,
        &live.row.client,
        seats,
    )?;
    let new_id = new.row.id.clone();
    let commitment = new.row.commitment.clone();
    let players: Vec<String> = new.seats.iter().map(|s| s.player.clone()).collect();
    app.insert(new).await?;
    app.store().set_rematch(&id, &new_id).await?;
    live.row.rematch = Some(new_id.clone());
    drop(live);
    app.wake(&slot);
    Ok((
        StatusCode::CREATED,
        Json(json!({"id": new_id, "seat": mine as Seat, "seats": players, "dice_commitment": commitment})),
    )
        .into_response())
}
