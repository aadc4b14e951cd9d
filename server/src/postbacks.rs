//! Postbacks: each conversion told to the traffic network that sent the member, server to
//! server, once per event (`domain::postbacks`).
//!
//! When a member signs up, confirms, pays or has a payment taken back, [`queue`] looks at the
//! network the member is counted under (`users.tracking_network`, chosen at signup by the site's
//! attribution model) and the click id of that network's touch; if staff set a URL for that
//! network and event, the URL is filled in and a `postbacks` row and its job are written in the
//! event's own transaction (the event's key makes a second one nothing). The job queue then
//! calls the URL from one node, retrying with its backoff while the network is down; after its
//! last try the call waits on `/staff/figures/postbacks`, where staff send it again.

use std::time::Duration;

use domain::jobs::{JobKind, JobStatus};
use domain::postbacks::{expand, CallStatus, PostbackEvent};
use domain::staff::StaffArea;

use crate::accounts::Member;
use crate::clock::Clock;
use crate::db::Db;
use crate::error::AppError;
use crate::jobs::{Handler, Job, Outcome};
use crate::staff::require_staff;

/// How long a network gets to answer.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// How much of a network's answer is kept.
const ANSWER_CHARS: usize = 300;

/// A payment a postback is about.
#[derive(Debug, Clone)]
pub struct PaymentFacts {
    pub id: i64,
    /// Minor units.
    pub amount: i64,
    pub currency: String,
}

/// What a member's postbacks are filled with.
#[derive(sqlx::FromRow)]
struct Source {
    tracking_network: Option<String>,
    tracking_ref: Option<String>,
    tracking_sub1: Option<String>,
    tracking_sub2: Option<String>,
    tracking_sub3: Option<String>,
    click_id: Option<String>,
}

/// Queues the postback of `event` for `user_id`, inside the event's transaction, when the
/// member came from a network that has a URL for it. Once per event: a repeat does nothing.
pub async fn queue(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    site_id: i64,
    user_id: i64,
    event: PostbackEvent,
    payment: Option<&PaymentFacts>,
    now: i64,
) -> Result<(), AppError> {
    let source: Option<Source> = sqlx::query_as(
        "SELECT u.tracking_network, u.tracking_ref, u.tracking_sub1, u.tracking_sub2, u.tracking_sub3, \
           (SELECT t.click_id FROM signup_touches t WHERE t.user_id = u.id AND t.network = u.tracking_network ORDER BY t.landed_at DESC LIMIT 1) AS click_id \
         FROM users u WHERE u.id = $1",
    )
    .bind(user_id)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(source) = source else { return Ok(()) };
    let Some(network) = source.tracking_network.clone() else { return Ok(()) };
    let template: Option<(String,)> = sqlx::query_as("SELECT url FROM postback_urls WHERE site_id = $1 AND network = $2 AND event = $3")
        .bind(site_id)
        .bind(&network)
        .bind(event.as_str())
        .fetch_optional(&mut **tx)
        .await?;
    let Some((template,)) = template else { return Ok(()) };
    let url = expand(&template, |m| match m {
        "click_id" => source.click_id.clone(),
        "network" => Some(network.clone()),
        "ref" => source.tracking_ref.clone(),
        "sub1" => source.tracking_sub1.clone(),
        "sub2" => source.tracking_sub2.clone(),
        "sub3" => source.tracking_sub3.clone(),
        "event" => Some(event.as_str().to_string()),
        "payout" => payment.map(|p| domain::postbacks::payout(p.amount)),
        "currency" => payment.map(|p| p.currency.clone()),
        "transaction_id" => payment.map(|p| p.id.to_string()),
        _ => None,
    });
    let key = match (event, payment) {
        (PostbackEvent::Purchase | PostbackEvent::Reversal, Some(p)) => format!("{}:{}", event.as_str(), p.id),
        _ => format!("{}:{user_id}", event.as_str()),
    };
    let id: Option<(i64,)> = sqlx::query_as(
        "INSERT INTO postbacks (site_id, user_id, network, event, event_key, url, status, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (event_key) DO NOTHING RETURNING id",
    )
    .bind(site_id)
    .bind(user_id)
    .bind(&network)
    .bind(event.as_str())
    .bind(&key)
    .bind(&url)
    .bind(CallStatus::Queued.as_str())
    .bind(now)
    .fetch_optional(&mut **tx)
    .await?;
    if let Some((id,)) = id {
        crate::jobs::enqueue(tx, Some(site_id), JobKind::Postback, &format!("postback:{id}"), &serde_json::json!({ "id": id }), now, now).await?;
    }
    Ok(())
}

/// A postback URL staff set.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PostbackUrl {
    pub network: String,
    pub event: String,
    pub url: String,
}

/// One call, as staff see it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PostbackCall {
    pub id: i64,
    pub user_id: Option<i64>,
    pub network: String,
    pub event: String,
    pub url: String,
    pub status: String,
    pub attempts: i64,
    pub http_status: Option<i64>,
    pub answer: Option<String>,
    pub created_at: i64,
    pub sent_at: Option<i64>,
}

/// The postbacks' calls and staff's side of them.
#[derive(Clone, Debug)]
pub struct Postbacks {
    db: Db,
    clock: Clock,
    client: reqwest::Client,
}

impl Postbacks {
    pub fn new(db: Db, clock: Clock) -> Postbacks {
        Postbacks::with_timeout(db, clock, TIMEOUT)
    }

    /// With another time a network gets to answer (tests of a slow network).
    pub fn with_timeout(db: Db, clock: Clock, timeout: Duration) -> Postbacks {
        let client = reqwest::Client::builder().timeout(timeout).redirect(reqwest::redirect::Policy::none()).build().unwrap_or_default();
        Postbacks { db, clock, client }
    }

    /// The calls run from the job queue.
    pub fn register(&self, jobs: &crate::jobs::Jobs) {
        jobs.handle(JobKind::Postback, std::sync::Arc::new(self.clone()));
    }

    /// The site's postback URLs.
    pub async fn urls(&self, who: &Member, site_id: i64) -> Result<Vec<PostbackUrl>, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        Ok(sqlx::query_as("SELECT network, event, url FROM postback_urls WHERE site_id = $1 ORDER BY network, event")
            .bind(site_id)
            .fetch_all(self.db.pool())
            .await?)
    }

    /// Sets (or replaces) a network's URL for an event; logged.
    pub async fn set_url(&self, who: &Member, site_id: i64, network: &str, event: &str, url: &str) -> Result<(), AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let network = domain::postbacks::check_network(network)?;
        let event = PostbackEvent::parse(event).ok_or(domain::ErrorCode::BadRequest)?;
        let url = domain::postbacks::check_url(url)?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        sqlx::query(
            "INSERT INTO postback_urls (site_id, network, event, url, created_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (site_id, network, event) DO UPDATE SET url = excluded.url, created_at = excluded.created_at",
        )
        .bind(site_id)
        .bind(&network)
        .bind(event.as_str())
        .bind(&url)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        crate::staff::record(&mut tx, site_id, who, "postback_set", &format!("{network} {}", event.as_str()), &url, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Removes a network's URL for an event; logged. Calls already made stay.
    pub async fn delete_url(&self, who: &Member, site_id: i64, network: &str, event: &str) -> Result<(), AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let gone = sqlx::query("DELETE FROM postback_urls WHERE site_id = $1 AND network = $2 AND event = $3")
            .bind(site_id)
            .bind(network)
            .bind(event)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if gone == 0 {
            return Err(domain::ErrorCode::NotFound.into());
        }
        crate::staff::record(&mut tx, site_id, who, "postback_deleted", &format!("{network} {event}"), "", now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The site's latest calls, newest first.
    pub async fn calls(&self, who: &Member, site_id: i64, limit: i64) -> Result<Vec<PostbackCall>, AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        Ok(sqlx::query_as(
            "SELECT id, user_id, network, event, url, status, attempts, http_status, answer, created_at, sent_at FROM postbacks \
             WHERE site_id = $1 ORDER BY id DESC LIMIT $2",
        )
        .bind(site_id)
        .bind(limit.clamp(1, 500))
        .fetch_all(self.db.pool())
        .await?)
    }

    /// Sends a failed call again: its job back in the queue, due now, its tries counted from
    /// nothing; logged. A call that is not failed (or another site's) is `not_found`.
    pub async fn resend(&self, who: &Member, site_id: i64, id: i64) -> Result<(), AppError> {
        require_staff(who, site_id, StaffArea::Figures)?;
        let now = self.clock.now();
        let mut tx = self.db.begin().await?;
        let failed: Option<(i64,)> = sqlx::query_as("SELECT id FROM postbacks WHERE id = $1 AND site_id = $2 AND status = $3")
            .bind(id)
            .bind(site_id)
            .bind(CallStatus::Failed.as_str())
            .fetch_optional(&mut *tx)
            .await?;
        if failed.is_none() {
            return Err(domain::ErrorCode::NotFound.into());
        }
        let key = format!("postback:{id}");
        let requeued = sqlx::query(
            "UPDATE jobs SET status = $1, due_at = $2, attempts = 0, last_error = NULL, finished_at = NULL, locked_by = NULL, locked_until = NULL \
             WHERE job_key = $3 AND status <> $1",
        )
        .bind(JobStatus::Queued.as_str())
        .bind(now)
        .bind(&key)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if requeued == 0 {
            crate::jobs::enqueue(&mut tx, Some(site_id), JobKind::Postback, &key, &serde_json::json!({ "id": id }), now, now).await?;
        }
        sqlx::query("UPDATE postbacks SET status = $1 WHERE id = $2").bind(CallStatus::Queued.as_str()).bind(id).execute(&mut *tx).await?;
        crate::staff::record(&mut tx, site_id, who, "postback_resent", &format!("postback #{id}"), "", now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Writes what a try got back.
    async fn answered(&self, id: i64, status: CallStatus, http_status: Option<i64>, answer: &str, now: i64) -> Result<(), AppError> {
        let answer: String = answer.chars().filter(|c| !c.is_control() || *c == ' ').take(ANSWER_CHARS).collect();
        sqlx::query(
            "UPDATE postbacks SET status = $1, attempts = attempts + 1, http_status = $2, answer = $3, sent_at = CASE WHEN $1 = $4 THEN $5 ELSE sent_at END WHERE id = $6",
        )
        .bind(status.as_str())
        .bind(http_status)
        .bind(answer)
        .bind(CallStatus::Sent.as_str())
        .bind(now)
        .bind(id)
        .execute(self.db.pool())
        .await?;
        Ok(())
    }
}

#[async_trait::async_trait]
impl Handler for Postbacks {
    /// One call: a 2xx answer sends it; anything else (an error status, a timeout, no network)
    /// fails this try and the queue tries again later.
    async fn run(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        let Some(id) = job.payload.get("id").and_then(|v| v.as_i64()) else { return Ok(Outcome::Dropped("payload")) };
        let row: Option<(String, String)> = sqlx::query_as("SELECT url, status FROM postbacks WHERE id = $1").bind(id).fetch_optional(self.db.pool()).await?;
        let Some((url, status)) = row else { return Ok(Outcome::Dropped("gone")) };
        if status == CallStatus::Sent.as_str() {
            return Ok(Outcome::Done);
        }
        match self.client.get(&url).send().await {
            Ok(answer) => {
                let code = answer.status();
                let body = answer.text().await.unwrap_or_default();
                if code.is_success() {
                    self.answered(id, CallStatus::Sent, Some(i64::from(code.as_u16())), &body, now).await?;
                    Ok(Outcome::Done)
                } else {
                    self.answered(id, CallStatus::Failed, Some(i64::from(code.as_u16())), &body, now).await?;
                    Err(AppError::Internal(format!("the network answered {code}")))
                }
            }
            Err(error) => {
                let what = if error.is_timeout() {
                    "timeout"
                } else if error.is_connect() {
                    "no connection"
                } else {
                    "request failed"
                };
                self.answered(id, CallStatus::Failed, None, what, now).await?;
                Err(AppError::Internal(format!("postback: {what}")))
            }
        }
    }
}
