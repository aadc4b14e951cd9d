//! Staff routes that are not pages: the operator figures as CSV (`GET /staff/operators.csv`,
//! the last 30 days), the sales report as CSV (`GET /staff/payments/sales.csv?period=2026-11`),
//! the owner's figures as CSV (`GET /staff/figures.csv`, the page's query), a member's data
//! export for a GDPR request (`POST /staff/members/export`), a chat photo waiting for review
//! (`GET /staff/chat-photos/{id}`),
//! and the operator queue's changes as server-sent events
//! (`GET /staff/chats/events`, one `queue` event whenever the site's queue changed, on any
//! node). Like every staff page, they do not exist (404) for anyone but the site's staff with the
//! role for them — visitors included; every export is written to the staff log.

use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use http::{header, StatusCode};

use crate::http::session::CurrentMember;
use crate::state::AppState;

/// How far back the operator figures reach.
pub const OPERATOR_FIGURES_DAYS: i64 = 30;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/staff/operators.csv", get(operator_figures_csv))
        .route("/staff/payments/sales.csv", get(sales_csv))
        .route("/staff/figures.csv", get(figures_csv))
        .route("/staff/chats/events", get(queue_events))
        .route("/staff/chat-photos/{id}", get(queued_chat_photo))
        // Only a post makes the file; any other method finds nothing, as on every staff address.
        .route(MEMBER_EXPORT_PATH, axum::routing::post(member_export).fallback(|| async { StatusCode::NOT_FOUND }))
}

/// A chat photo waiting for review, for moderators and admins of its site (never kept by the
/// browser); 404 for any other photo and anyone else.
async fn queued_chat_photo(State(state): State<AppState>, axum::Extension(current): axum::Extension<CurrentMember>, Path(id): Path<String>) -> Response {
    // Not a number: as not found as any other (a 400 would tell a visitor the address exists).
    let (Some(member), Ok(id)) = (current.0, id.parse::<i64>()) else { return StatusCode::NOT_FOUND.into_response() };
    match state.chat.queued_photo(&member, member.site_id, id).await {
        Ok(Some(bytes)) => ([(header::CACHE_CONTROL, "no-store"), (header::CONTENT_TYPE, "image/jpeg")], axum::body::Body::from(bytes)).into_response(),
        Ok(None) | Err(crate::error::AppError::Refused(_)) => StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            error.into_public();
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

/// A member's data export for a GDPR request (support and admins), posted from the member file.
pub use domain::staff::MEMBER_EXPORT_PATH;

#[derive(Debug, serde::Deserialize)]
struct ExportForm {
    id: i64,
    #[serde(default)]
    reason: String,
}

/// The member's archive as they would download it themselves (`crate::privacy`), in their
/// language, with the reason in the staff log first. Without a reason: back to the file, which
/// says so; anyone but the site's support and admins: 404.
async fn member_export(
    State(state): State<AppState>,
    axum::Extension(current): axum::Extension<CurrentMember>,
    form: Result<axum::Form<ExportForm>, axum::extract::rejection::FormRejection>,
) -> Response {
    let (Some(staff), Ok(axum::Form(form))) = (current.0, form) else { return StatusCode::NOT_FOUND.into_response() };
    let now = state.clock.now();
    match state.staff.member_exported(&staff, staff.site_id, form.id, &form.reason, now).await {
        Ok(()) => {}
        Err(crate::error::AppError::Refused(e)) if e.code == domain::ErrorCode::ReasonRequired => {
            return axum::response::Redirect::to(&format!("/staff/members?q=%23{}&export=reason#member-export", form.id)).into_response();
        }
        Err(crate::error::AppError::Refused(_)) => return StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            tracing::warn!(%error, "a member's export could not be logged");
            return StatusCode::INTERNAL_SERVER_ERROR.into_response();
        }
    }
    let language = state.accounts.member(form.id).await.ok().flatten().map(|m| m.language).unwrap_or_default();
    let locale = domain::Locale::parse(&language).unwrap_or(domain::Locale::DEFAULT);
    match crate::privacy::export(&state.db, &state.media, &state.catalog, locale, form.id, now).await {
        Ok(file) => {
            let length = file.metadata().map(|m| m.len()).unwrap_or(0);
            let stream = tokio_util::io::ReaderStream::new(tokio::fs::File::from_std(file));
            (
                [
                    (http::header::CONTENT_TYPE, "application/zip".to_string()),
                    (http::header::CONTENT_DISPOSITION, format!("attachment; filename=\"member-{}-data.zip\"", form.id)),
                    (http::header::CONTENT_LENGTH, length.to_string()),
                    (http::header::CACHE_CONTROL, "private, no-store".to_string()),
                ],
                axum::body::Body::from_stream(stream),
            )
                .into_response()
        }
        Err(error) => {
            tracing::warn!(%error, "a member's export failed");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

#[derive(Debug, serde::Deserialize)]
struct SalesQuery {
    #[serde(default)]
    period: String,
}

/// The sales report of a period (`2026-11`, `2026-Q4`; this month when absent or unreadable).
async fn sales_csv(
    State(state): State<AppState>,
    axum::Extension(current): axum::Extension<CurrentMember>,
    query: Result<axum::extract::Query<SalesQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let Some(member) = current.0 else { return StatusCode::NOT_FOUND.into_response() };
    let period = query.ok().and_then(|q| domain::sales::Period::parse(&q.period)).unwrap_or_else(|| domain::sales::Period::month_of(state.clock.now()));
    let name = format!("sales-{}.csv", period.code());
    let csv = async {
        let rows = state.payments.sales_report(&member, member.site_id, period).await?;
        state.staff.note(&member, member.site_id, "export", &name, &format!("{} rows", rows.len()), state.clock.now()).await?;
        Ok(domain::sales::to_csv(period, &rows))
    };
    export(&name, csv.await, "the sales report")
}

/// The figures' table as `/staff/figures` shows it for the same query (admins and finance).
async fn figures_csv(
    State(state): State<AppState>,
    axum::Extension(current): axum::Extension<CurrentMember>,
    axum::extract::RawQuery(query): axum::extract::RawQuery,
) -> Response {
    let Some(member) = current.0 else { return StatusCode::NOT_FOUND.into_response() };
    let query = query.unwrap_or_default();
    let q = domain::figures::FigureQuery::parse(|name| domain::figures::query_param(&query, name), state.clock.now().div_euclid(86_400));
    let name = format!("figures-{}-{}-{}.csv", q.by.as_str(), domain::figures::Grain::Day.label(q.from), domain::figures::Grain::Day.label(q.to));
    let csv = async {
        let funnel = state.figures.funnel(&member, member.site_id, &q).await?;
        state.staff.note(&member, member.site_id, "export", &name, &format!("{} rows", funnel.rows.len()), state.clock.now()).await?;
        Ok(domain::figures::to_csv(q.by, &funnel.rows, &funnel.total))
    };
    export(&name, csv.await, "the figures")
}

/// A CSV export, or 404 when the member may not have it.
fn export(name: &str, csv: Result<String, crate::error::AppError>, what: &str) -> Response {
    match csv {
        Ok(body) => csv_file(name, body),
        Err(crate::error::AppError::Refused(_)) => StatusCode::NOT_FOUND.into_response(),
        Err(error) => {
            tracing::warn!(%error, "{what} could not be read");
            StatusCode::INTERNAL_SERVER_ERROR.into_response()
        }
    }
}

fn csv_file(name: &str, body: String) -> Response {
    (
        [
            (http::header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (http::header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")),
            (http::header::CACHE_CONTROL, "private, no-store".to_string()),
            (http::header::X_CONTENT_TYPE_OPTIONS, "nosniff".to_string()),
        ],
        body,
    )
        .into_response()
}

/// The site's queue changed: the open queue page reads it again (the event carries nothing
/// else). The stream belongs to the operator's session (`streams`): it ends within seconds of
/// a logout or the operator role being taken away (the browser's reconnect then finds no page
/// and stops), and a session's oldest stream gives way to a newer one, telling the browser not
/// to come back for ten minutes (the page reads the queue every minute meanwhile). It also ends
/// when the node shuts down; the browser reconnects by itself.
async fn queue_events(State(state): State<AppState>, headers: http::HeaderMap, axum::Extension(current): axum::Extension<CurrentMember>) -> Response {
    use axum::response::sse::{Event, KeepAlive, Sse};
    use tokio::sync::broadcast::error::RecvError;
    let (Some(member), Some(session)) = (current.0.filter(|m| m.may(crate::staff::StaffArea::Console)), crate::http::session::session_hash(&headers)) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let site = member.site_id;
    let bus = state.chat.bus();
    let lease = state.streams.open(&session, crate::streams::Need::Operator);
    let start = Some((bus.queue_changes(), bus.shutdown_token(), lease));
    let stream = futures_util::stream::unfold(start, move |open| async move {
        let (mut changes, closing, mut lease) = open?;
        loop {
            let heard = tokio::select! {
                _ = closing.cancelled() => return None,
                why = lease.ended() => {
                    // The last word: when to come back (a stream that gave way, not soon).
                    let retry = if why == crate::streams::Ended::Superseded { 600 } else { 5 };
                    let last = Event::default().event("closed").data(why.reason()).retry(std::time::Duration::from_secs(retry));
                    return Some((Ok::<_, std::convert::Infallible>(last), None));
                }
                heard = changes.recv() => heard,
            };
            match heard {
                Ok(changed) if changed != site => continue,
                // Missed some: something changed all the same.
                Ok(_) | Err(RecvError::Lagged(_)) => {
                    return Some((Ok::<_, std::convert::Infallible>(Event::default().event("queue").data("changed")), Some((changes, closing, lease))));
                }
                Err(RecvError::Closed) => return None,
            }
        }
    });
    ([(http::header::CACHE_CONTROL, "private, no-store")], Sse::new(stream).keep_alive(KeepAlive::default())).into_response()
}

async fn operator_figures_csv(State(state): State<AppState>, axum::Extension(current): axum::Extension<CurrentMember>) -> Response {
    let Some(member) = current.0 else { return StatusCode::NOT_FOUND.into_response() };
    let now = state.clock.now();
    let csv = async {
        let figures = state.chat.operator_figures(&member, member.site_id, now - OPERATOR_FIGURES_DAYS * 86_400).await?;
        state.staff.note(&member, member.site_id, "export", "operators.csv", &format!("{} rows", figures.days.len()), now).await?;
        Ok(domain::operators::to_csv(&figures.days, |id| figures.names.get(&id).cloned().unwrap_or_default()))
    };
    export("operators.csv", csv.await, "the operator figures")
}
