//! Security events: what happened to an account, in the `security_events` table and in the log
//! (target `security`). Never a password or a token; the address and the device, so a member
//! can recognise what was not them.

use domain::security::{Device, SecurityEventKind};
use sqlx::{Any, Executor};

use super::Accounts;
use crate::error::AppError;

/// Who is asking, as far as the request tells: for the session list and the security events.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Client {
    pub ip: Option<String>,
    pub user_agent: Option<String>,
    /// The request's country (ISO code), as the site places the visitor.
    pub country: Option<String>,
    /// The browser's time zone (an IANA name the `tz` cookie told, checked), for the member's
    /// quiet hours (`crate::lifecycle`).
    pub time_zone: Option<String>,
    /// The visitor cookie's value (`crate::visits`): a signup finds the landings that brought it.
    pub visitor: Option<String>,
}

impl Client {
    /// User agents are kept short: they are shown, not parsed again in full.
    pub fn new(ip: Option<String>, user_agent: Option<&str>, country: Option<String>) -> Client {
        let user_agent = user_agent.map(|ua| ua.chars().take(300).collect::<String>()).filter(|ua| !ua.trim().is_empty());
        Client { ip, user_agent, country, time_zone: None, visitor: None }
    }

    /// The visitor cookie's value, when it has the form of one.
    pub fn with_visitor(mut self, visitor: Option<String>) -> Client {
        self.visitor = visitor.filter(|v| super::tokens::is_well_formed(v));
        self
    }

    /// The browser's time zone, kept only when it names a zone of the time zone database.
    pub fn with_time_zone(mut self, zone: Option<&str>) -> Client {
        self.time_zone = zone.and_then(crate::lifecycle::known_zone).map(|z| z.name().to_string());
        self
    }
}

/// One event as settings show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecurityEvent {
    pub kind: SecurityEventKind,
    pub at: i64,
    pub country: Option<String>,
    pub device: Option<String>,
}

/// How many events settings show.
pub const EVENTS_SHOWN: i64 = 15;

/// Writes one event (in the caller's transaction when it has one) and logs it.
pub(super) async fn record<'e, E: Executor<'e, Database = Any>>(
    executor: E,
    user_id: i64,
    kind: SecurityEventKind,
    client: &Client,
    now: i64,
) -> Result<(), AppError> {
    tracing::info!(target: "security", user_id, event = kind.as_str(), ip = client.ip.as_deref().unwrap_or("-"), "security event");
    sqlx::query("INSERT INTO security_events (user_id, kind, ip, country, user_agent, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(user_id)
        .bind(kind.as_str())
        .bind(client.ip.as_deref())
        .bind(client.country.as_deref())
        .bind(client.user_agent.as_deref())
        .bind(now)
        .execute(executor)
        .await?;
    Ok(())
}

impl Accounts {
    /// Records an event outside any transaction (a failure that changes nothing else).
    pub async fn record_event(&self, user_id: i64, kind: SecurityEventKind, client: &Client) -> Result<(), AppError> {
        record(self.db.pool(), user_id, kind, client, self.clock.now()).await
    }

    /// The member's most recent events, newest first.
    pub async fn security_events(&self, user_id: i64) -> Result<Vec<SecurityEvent>, AppError> {
        let rows: Vec<(String, i64, Option<String>, Option<String>)> =
            sqlx::query_as("SELECT kind, created_at, country, user_agent FROM security_events WHERE user_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2")
                .bind(user_id)
                .bind(EVENTS_SHOWN)
                .fetch_all(self.db.pool())
                .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(kind, at, country, ua)| {
                Some(SecurityEvent { kind: SecurityEventKind::parse(&kind)?, at, country, device: ua.and_then(|ua| Device::from_user_agent(&ua).label()) })
            })
            .collect())
    }
}
