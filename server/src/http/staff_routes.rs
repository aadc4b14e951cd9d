//! Staff downloads (files, so routes of their own): the operator figures as CSV
//! (`GET /staff/operators.csv`, the last 30 days). Like every staff page, it does not exist
//! for anyone but the site's staff.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use http::StatusCode;

use crate::http::session::CurrentMember;
use crate::state::AppState;

/// How far back the operator figures reach.
pub const OPERATOR_FIGURES_DAYS: i64 = 30;

pub fn routes() -> Router<AppState> {
    Router::new().route("/staff/operators.csv", get(operator_figures_csv))
}

async fn operator_figures_csv(State(state): State<AppState>, axum::Extension(current): axum::Extension<CurrentMember>) -> Response {
    let Some(member) = current.0 else {
        return axum::response::Redirect::to("/login?return_to=/staff/operators.csv").into_response();
    };
    let now = state.clock.now();
    match state.chat.operator_figures(&member, member.site_id, now - OPERATOR_FIGURES_DAYS * 86_400).await {
        Ok(figures) => {
            let csv = domain::operators::to_csv(&figures.days, |id| figures.names.get(&id).cloned().unwrap_or_default());
            (
                [
                    (http::header::CONTENT_TYPE, "text/csv; charset=utf-8"),
                    (http::header::CONTENT_DISPOSITION, "attachment; filename=\"operators.csv\""),
                    (http::header::CACHE_CONTROL, "private, no-store"),
                    (http::header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
                ],
                csv,
            )
                .into_response()
        }
        Err(crate::error::AppError::Refused(_)) => StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            tracing::warn!(%error, "the operator figures could not be read");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}
