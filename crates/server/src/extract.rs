//! The preamble of every handler of one game, written once as axum extractors.
//!
//! A request about a game names it in the path and may carry a seat's token. [`GameRef`]
//! finds the live game (404 when there is none) and reads the `Authorization` header (401
//! when it is unreadable) without taking the game's lock; [`Viewing`] also takes the lock
//! and says who the token makes the request (a seat, or a spectator without a token; 403
//! for another game's token); [`Seated`] insists on a seat (401 without a token). Every
//! refusal is the same JSON [`crate::ApiError`] the handlers answered before.
//!
//! [`Posted`] is a game's request with a JSON body: the body is read and judged first (400)
//! and only then the game found, so a slow body never holds a game's lock and a malformed
//! request is refused as malformed whatever game it names.
//!
//! Rejected alternative: a middleware that puts the game in the request's extensions. It
//! would run for every route, and a handler could still forget to ask for the seat; an
//! extractor in the handler's signature says what the handler needs.

use crate::{ApiResult, App, GameSlot, Live, bad_request, bearer, body_or_empty};
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use battlemat_core::{Seat, Viewer};
use std::sync::Arc;
use tokio::sync::OwnedMutexGuard;

/// A live game named by the path, and the request's token (not yet checked against it).
pub(crate) struct GameRef {
    pub id: String,
    pub slot: Arc<GameSlot>,
    pub token: Option<String>,
}

impl GameRef {
    /// Take the game's lock and make the token a viewer (a request marks its seat present).
    pub async fn viewing(self) -> ApiResult<Viewing> {
        let live = self.slot.live.clone().lock_owned().await;
        let viewer = live.viewer_of(self.token.as_deref())?;
        Ok(Viewing {
            slot: self.slot,
            live,
            viewer,
        })
    }

    /// Take the game's lock and the token's seat: 401 without a token, 403 for another's.
    pub async fn seated(self) -> ApiResult<Seated> {
        let live = self.slot.live.clone().lock_owned().await;
        let seat = live.seat_of(self.token.as_deref())?;
        Ok(Seated {
            id: self.id,
            slot: self.slot,
            live,
            seat,
            token: self.token,
        })
    }
}

impl FromRequestParts<Arc<App>> for GameRef {
    /// Axum's own refusal of the path (which [`crate::limits::json_errors`] puts in JSON),
    /// or ours.
    type Rejection = Response;
    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<GameRef, Response> {
        let Path(id) = Path::<String>::from_request_parts(parts, app)
            .await
            .map_err(IntoResponse::into_response)?;
        let slot = app.slot(&id).map_err(IntoResponse::into_response)?;
        let token = bearer(&parts.headers).map_err(IntoResponse::into_response)?;
        Ok(GameRef { id, slot, token })
    }
}

/// A game as the request's viewer sees it, its lock held.
pub(crate) struct Viewing {
    pub slot: Arc<GameSlot>,
    pub live: OwnedMutexGuard<Live>,
    pub viewer: Viewer,
}

impl FromRequestParts<Arc<App>> for Viewing {
    type Rejection = Response;
    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Viewing, Response> {
        GameRef::from_request_parts(parts, app)
            .await?
            .viewing()
            .await
            .map_err(IntoResponse::into_response)
    }
}

/// A game and the seat the request's token holds, its lock held.
pub(crate) struct Seated {
    pub id: String,
    pub slot: Arc<GameSlot>,
    pub live: OwnedMutexGuard<Live>,
    pub seat: Seat,
    pub token: Option<String>,
}

impl FromRequestParts<Arc<App>> for Seated {
    type Rejection = Response;
    async fn from_request_parts(parts: &mut Parts, app: &Arc<App>) -> Result<Seated, Response> {
        GameRef::from_request_parts(parts, app)
            .await?
            .seated()
            .await
            .map_err(IntoResponse::into_response)
    }
}

/// A request body that says more than its shape: `check` refuses a body that parses but
/// cannot be right (400), before the game is looked at.
pub(crate) trait Checked: serde::de::DeserializeOwned {
    /// Whether an empty body reads as `{}` (an optional body).
    const OPTIONAL: bool = false;
    fn check(&self) -> ApiResult<()> {
        Ok(())
    }
}

/// A game's request with a JSON body: the body judged first (400), then the game (404, 401).
pub(crate) struct Posted<T> {
    pub body: T,
    pub game: GameRef,
}

impl<T: Checked + Send> FromRequest<Arc<App>> for Posted<T> {
    type Rejection = Response;
    async fn from_request(req: Request, app: &Arc<App>) -> Result<Posted<T>, Response> {
        let (mut parts, body) = req.into_parts();
        let game = GameRef::from_request_parts(&mut parts, app).await;
        // Axum's refusal of the body (too large: 413) as before, in JSON by json_errors.
        let bytes = axum::body::Bytes::from_request(Request::from_parts(parts, body), app)
            .await
            .map_err(IntoResponse::into_response)?;
        let judged = if T::OPTIONAL {
            body_or_empty(&bytes)
        } else {
            serde_json::from_slice(&bytes).map_err(bad_request)
        };
        let body: T = judged
            .and_then(|b: T| b.check().map(|()| b))
            .map_err(IntoResponse::into_response)?;
        Ok(Posted { body, game: game? })
    }
}
