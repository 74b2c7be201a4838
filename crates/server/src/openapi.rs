//! The OpenAPI document (`GET /api/openapi.json`), made by utoipa from the handlers' own
//! `#[utoipa::path]` attributes, so it is written where each endpoint is. A test checks that
//! every route the router serves is in it.

use axum::Json;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

struct BearerToken;

impl Modify for BearerToken {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        let c = doc.components.get_or_insert_with(Default::default);
        c.add_security_scheme(
            "token",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "a seat's token (from creating or joining a game); none for a spectator",
                    ))
                    .build(),
            ),
        );
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Battlemat", description = "Online games of every Battlemat ruleset: the lobby, play, and streams (docs/server.md)."),
    paths(
        crate::create_game, crate::list_games, crate::get_game, crate::get_legal,
        crate::post_action, crate::resign, crate::seats::join, crate::seats::leave,
        crate::seats::claim, crate::seats::rematch, crate::get_events, crate::get_record,
        crate::get_svg, crate::replay::get_replay, crate::replay::get_dice, crate::hint::get_hint,
        crate::streams::game_ws, crate::streams::game_stream,
        crate::streams::event_stream, crate::get_rulesets, document,
        crate::lobby_page, crate::game_page, crate::asset,
    ),
    modifiers(&BearerToken),
    tags(
        (name = "lobby", description = "creating, listing, joining, leaving games"),
        (name = "play", description = "a game as a seat or a spectator sees it, and acting in it"),
        (name = "streams", description = "following games: WebSocket and NDJSON"),
        (name = "browser", description = "the browser client's pages"),
    )
)]
pub struct ApiDoc;

/// This document.
#[utoipa::path(get, path = "/api/openapi.json", tag = "lobby",
    responses((status = 200, description = "the OpenAPI 3.1 document")))]
pub(crate) async fn document() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
