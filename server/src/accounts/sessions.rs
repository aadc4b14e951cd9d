//! Sessions: the browser keeps a random token in the `auth.session` cookie; the database keeps
//! only its hash, its member, its expiry and what settings show of it (device, country, last
//! use). A session slides with use and ends after 30 idle days.

use domain::constants::AUTH_COOKIE_DAYS;
use domain::security::{Device, SecurityEventKind};
use sqlx::{Any, Row, Transaction};

use super::member::member_select;
use super::security::{record, Client};
use super::{tokens, Accounts, Member};
use crate::error::AppError;

/// Idle time after which a session ends (the cookie lives as long).
pub const SESSION_TTL_SECS: i64 = AUTH_COOKIE_DAYS * 24 * 3600;
/// A session's last use is written at most this often (and the cookie renewed with it).
pub const SESSION_TOUCH_SECS: i64 = 600;

/// Starts a session inside the caller's transaction; returns the token for the cookie.
pub(super) async fn start(tx: &mut Transaction<'_, Any>, user_id: i64, now: i64, client: &Client) -> Result<String, sqlx::Error> {
    let token = tokens::new_token();
    sqlx::query("INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at, user_agent, country) VALUES ($1, $2, $3, $4, $3, $5, $6)")
        .bind(tokens::hash(&token))
        .bind(user_id)
        .bind(now)
        .bind(now + SESSION_TTL_SECS)
        .bind(client.user_agent.as_deref())
        .bind(client.country.as_deref())
        .execute(&mut **tx)
        .await?;
    sqlx::query("UPDATE users SET last_seen_at = $1, time_zone = COALESCE($3, time_zone) WHERE id = $2")
        .bind(now)
        .bind(user_id)
        .bind(client.time_zone.as_deref())
        .execute(&mut **tx)
        .await?;
    Ok(token)
}

/// Ends every session of a member inside the caller's transaction, and every sign-in link of
/// theirs still out in mails (a way in like a session).
pub(crate) async fn end_all(tx: &mut Transaction<'_, Any>, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut **tx).await?;
    end_sign_in_links(tx, user_id).await
}

/// Blocks a member inside `tx` (not a deleted account): every session and sign-in link ends with
/// it. The caller refreshes the search and logs why.
pub(crate) async fn block_in(tx: &mut Transaction<'_, Any>, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET status = $2 WHERE id = $1 AND status <> $3")
        .bind(user_id)
        .bind(domain::account::UserStatus::Blocked.as_str())
        .bind(domain::account::UserStatus::Deleted.as_str())
        .execute(&mut **tx)
        .await?;
    end_all(tx, user_id).await
}

/// Every sign-in link of a member stops working (a password change, logging out everywhere).
pub(super) async fn end_sign_in_links(tx: &mut Transaction<'_, Any>, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM account_tokens WHERE user_id = $1 AND kind = $2").bind(user_id).bind(tokens::Kind::SignIn.as_str()).execute(&mut **tx).await?;
    Ok(())
}

/// Ends every session of a member but `keep` (a token of the caller's, if any), and every
/// sign-in link of theirs.
pub(super) async fn end_others(tx: &mut Transaction<'_, Any>, user_id: i64, keep: Option<&str>) -> Result<u64, sqlx::Error> {
    end_sign_in_links(tx, user_id).await?;
    let keep = keep.map(tokens::hash).unwrap_or_default();
    let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2").bind(user_id).bind(keep).execute(&mut **tx).await?;
    Ok(done.rows_affected())
}

/// A session as settings list it. `id` is a short public name of it (a prefix of the token's
/// hash), enough to end it, useless for anything else.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionInfo {
    pub id: String,
    pub current: bool,
    pub device: Option<String>,
    pub country: Option<String>,
    pub created_at: i64,
    pub last_seen_at: i64,
}

const SESSION_ID_LEN: usize = 16;

fn session_id(token_hash: &str) -> String {
    token_hash.chars().take(SESSION_ID_LEN).collect()
}

/// The member and whether this request renewed the session (then the cookie is renewed too).
#[derive(Debug, Clone)]
pub struct ResolvedSession {
    pub member: Member,
    pub renewed: bool,
}

fn session_select() -> &'static str {
    static SELECT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SELECT.get_or_init(|| {
        let members =
            member_select().replacen("SELECT ", "SELECT s.last_seen_at AS session_seen, s.expires_at AS session_expires, s.country AS session_country, ", 1);
        format!("{members} JOIN sessions s ON s.user_id = u.id WHERE s.token_hash = $1 AND s.expires_at > $2 AND u.status <> $3")
    })
}

impl Accounts {
    /// Starts a session for a member without a password: for the operator's own tools (the
    /// chat load test logs its members in this way). Returns the cookie's token.
    pub async fn open_session(&self, user_id: i64) -> Result<String, AppError> {
        let mut tx = self.db().begin().await?;
        let token = start(&mut tx, user_id, self.clock().now(), &Client::default()).await?;
        tx.commit().await?;
        Ok(token)
    }

    /// The member behind a session cookie, if the session is valid.
    pub async fn member_for_session(&self, token: &str) -> Result<Option<Member>, AppError> {
        Ok(self.resolve_session(token).await?.map(|s| s.member))
    }

    /// The member behind a session cookie; a session last used more than
    /// [`SESSION_TOUCH_SECS`] ago slides: its last use and expiry move to now. The member comes
    /// from memory while nothing of theirs changed ([`crate::member_cache`]).
    pub async fn resolve_session(&self, token: &str) -> Result<Option<ResolvedSession>, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(None);
        }
        let now = self.clock.now();
        let hash = tokens::hash(token);
        let ticket = self.member_cache.sync();
        let kept = ticket.and_then(|_| self.member_cache.session(&hash)).filter(|s| s.expires > now);
        let (member, seen) = match kept {
            Some(kept) => (kept.member, kept.seen),
            None => {
                #[derive(sqlx::FromRow)]
                struct SessionRow {
                    session_seen: i64,
                    session_expires: i64,
                    #[sqlx(flatten)]
                    member: super::member::MemberRow,
                }
                let row: Option<SessionRow> = sqlx::query_as(session_select())
                    .bind(&hash)
                    .bind(now)
                    .bind(domain::account::UserStatus::Deleted.as_str())
                    .fetch_optional(self.db.pool())
                    .await?;
                let Some(SessionRow { session_seen: seen, session_expires: expires, member }) = row else {
                    return Ok(None);
                };
                let Some(member) = self.complete_member(Some(member)).await? else {
                    return Ok(None);
                };
                if let Some(ticket) = ticket {
                    self.member_cache.put_session(ticket, &hash, crate::member_cache::CachedSession { member: member.clone(), seen, expires });
                }
                (member, seen)
            }
        };
        let renewed = now - seen >= SESSION_TOUCH_SECS;
        if renewed {
            // The change drops the kept session: the next request reads the new times.
            sqlx::query("UPDATE sessions SET last_seen_at = $1, expires_at = $2 WHERE token_hash = $3")
                .bind(now)
                .bind(now + SESSION_TTL_SECS)
                .bind(&hash)
                .execute(self.db.pool())
                .await?;
            // The account's last visit, which outlives its sessions (win-back messages read it).
            sqlx::query("UPDATE users SET last_seen_at = $1 WHERE id = $2").bind(now).bind(member.id).execute(self.db.pool()).await?;
        }
        Ok(Some(ResolvedSession { member, renewed }))
    }

    /// The member's time zone as their browser tells it (the `tz` cookie, on a session's
    /// renewal); names outside the time zone database change nothing.
    pub async fn note_time_zone(&self, user_id: i64, zone: &str) -> Result<(), AppError> {
        let Some(zone) = crate::lifecycle::known_zone(zone) else { return Ok(()) };
        sqlx::query("UPDATE users SET time_zone = $1 WHERE id = $2 AND (time_zone IS NULL OR time_zone <> $1)")
            .bind(zone.name())
            .bind(user_id)
            .execute(self.db.pool())
            .await?;
        Ok(())
    }

    /// The member's sessions, the current one first, then by last use.
    pub async fn sessions(&self, user_id: i64, current: Option<&str>) -> Result<Vec<SessionInfo>, AppError> {
        let current = current.map(tokens::hash);
        let rows = sqlx::query(
            "SELECT token_hash, user_agent, country, created_at, last_seen_at FROM sessions WHERE user_id = $1 AND expires_at > $2 ORDER BY last_seen_at DESC",
        )
        .bind(user_id)
        .bind(self.clock.now())
        .fetch_all(self.db.pool())
        .await?;
        let mut list = rows
            .iter()
            .map(|row| {
                let hash: String = row.try_get("token_hash")?;
                Ok(SessionInfo {
                    id: session_id(&hash),
                    current: current.as_deref() == Some(hash.as_str()),
                    device: row.try_get::<Option<String>, _>("user_agent")?.and_then(|ua| Device::from_user_agent(&ua).label()),
                    country: row.try_get("country")?,
                    created_at: row.try_get("created_at")?,
                    last_seen_at: row.try_get("last_seen_at")?,
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        list.sort_by_key(|s| !s.current);
        Ok(list)
    }

    /// Ends one of the member's own sessions by its public id; another member's id ends nothing.
    pub async fn end_session(&self, user_id: i64, id: &str, client: &Client) -> Result<bool, AppError> {
        if id.len() != SESSION_ID_LEN || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(false);
        }
        let mut tx = self.db.begin().await?;
        let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND substr(token_hash, 1, 16) = $2")
            .bind(user_id)
            .bind(id.to_ascii_lowercase())
            .execute(&mut *tx)
            .await?;
        let ended = done.rows_affected() > 0;
        if ended {
            record(&mut *tx, user_id, SecurityEventKind::SessionEnded, client, self.clock.now()).await?;
        }
        tx.commit().await?;
        Ok(ended)
    }

    /// "Log out everywhere else": every session of the member but the current one.
    pub async fn end_other_sessions(&self, user_id: i64, current: &str, client: &Client) -> Result<u64, AppError> {
        let mut tx = self.db.begin().await?;
        let ended = end_others(&mut tx, user_id, Some(current)).await?;
        record(&mut *tx, user_id, SecurityEventKind::OtherSessionsEnded, client, self.clock.now()).await?;
        tx.commit().await?;
        Ok(ended)
    }
    /// Ends every session and sign-in link of a member (a blocked member, everywhere at once).
    pub async fn end_sessions(&self, user_id: i64) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        end_all(&mut tx, user_id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Blocks or unblocks a member (for staff tools); blocking ends
    /// their sessions in the same transaction.
    pub async fn set_blocked(&self, user_id: i64, blocked: bool) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        if blocked {
            block_in(&mut tx, user_id).await?;
        } else {
            sqlx::query("UPDATE users SET status = $2 WHERE id = $1 AND status = $3")
                .bind(user_id)
                .bind(domain::account::UserStatus::Active.as_str())
                .bind(domain::account::UserStatus::Blocked.as_str())
                .execute(&mut *tx)
                .await?;
        }
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        tx.commit().await?;
        // Again once committed: a visitor search between the two may have read the old state.
        crate::members::search_cache::invalidate();
        Ok(())
    }

    /// Ends one session on the server (logging out).
    pub async fn logout(&self, token: &str) -> Result<(), AppError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1").bind(tokens::hash(token)).execute(self.db.pool()).await?;
        Ok(())
    }

    /// Deletes expired sessions and account tokens (the hourly job). Used tokens stay a day,
    /// so "how many mails today" still counts them.
    pub async fn remove_expired(&self) -> Result<(u64, u64), AppError> {
        let now = self.clock.now();
        let sessions = sqlx::query("DELETE FROM sessions WHERE expires_at <= $1").bind(now).execute(self.db.pool()).await?.rows_affected();
        let tokens = sqlx::query("DELETE FROM account_tokens WHERE expires_at <= $1 AND created_at <= $2")
            .bind(now)
            .bind(now - 24 * 3600)
            .execute(self.db.pool())
            .await?
            .rows_affected();
        Ok((sessions, tokens))
    }
}
