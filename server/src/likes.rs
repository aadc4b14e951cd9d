//! Likes and matches. A like is a row (liker, liked); a match is a like both ways. Likes only
//! go to visible members of the same site who have not blocked the liker; blocking removes the
//! likes between the two (see `Members::block`). The swipe game's likes of free members count
//! against a daily allowance ([`domain::likes::swipe_allowance`]).

use domain::account::Ymd;
use domain::likes::{swipe_allowance, Allowance, LikeKind, LikeSource};
use domain::search::MemberCard;
use domain::site::SiteSettings;
use sqlx::Row;

use crate::accounts::Member;
use crate::error::AppError;
use crate::members::search::{CARD_COLUMNS, NOT_BLOCKED};
use crate::members::Members;

#[derive(Debug, thiserror::Error)]
pub enum LikeError {
    #[error("not found")]
    NotFound,
    /// SPEC §8: 'user blocked by another member'.
    #[error("blocked by the other member")]
    BlockedByOther,
    /// The swipe game's allowance is used up until `next_at`.
    #[error("daily likes used up")]
    DailyLimit { next_at: i64 },
    #[error(transparent)]
    Internal(#[from] AppError),
}

impl From<sqlx::Error> for LikeError {
    fn from(e: sqlx::Error) -> Self {
        LikeError::Internal(AppError::Database(e))
    }
}

impl LikeError {
    pub fn key(&self) -> &'static str {
        match self {
            LikeError::NotFound => "error.not_found",
            LikeError::BlockedByOther => "error.blocked_by_member",
            LikeError::DailyLimit { .. } => "likes.limit_reached",
            LikeError::Internal(e) => {
                e.public();
                "error.generic"
            }
        }
    }
}

/// What a like led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LikeOutcome {
    /// The other member had already liked me: a match ('New like!').
    pub matched: bool,
}

/// One profile on a likes page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LikedCard {
    pub card: MemberCard,
    /// A received like the member has not looked at yet (SPEC §3 like_new).
    pub new: bool,
    pub at: i64,
}

/// Whether each of two members liked the other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LikeState {
    pub i_liked: bool,
    pub they_liked: bool,
}

/// When the member's swipe likes of the last [`domain::likes::SWIPE_WINDOW_SECS`] were given.
async fn recent_swipes<'e, E>(executor: E, me: i64, now: i64) -> Result<Vec<i64>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows: Vec<(i64,)> = sqlx::query_as("SELECT created_at FROM likes WHERE liker_id = $1 AND source = 'swipe' AND created_at > $2")
        .bind(me)
        .bind(now - domain::likes::SWIPE_WINDOW_SECS)
        .fetch_all(executor)
        .await?;
    Ok(rows.into_iter().map(|(t,)| t).collect())
}

#[derive(Clone, Debug)]
pub struct Likes {
    members: Members,
}

impl Likes {
    pub fn new(members: Members) -> Likes {
        Likes { members }
    }

    fn pool(&self) -> &sqlx::AnyPool {
        self.members.db().pool()
    }

    /// Likes another visible member of the same site.
    pub async fn like(&self, site: &SiteSettings, me: &Member, other: i64, source: LikeSource, now: i64) -> Result<LikeOutcome, LikeError> {
        if me.id == other {
            return Err(LikeError::NotFound);
        }
        let row = sqlx::query(
            "SELECT p.searchable, (SELECT COUNT(*) FROM blocks b WHERE b.blocker_id = $1 AND b.blocked_id = $2) AS blocked_me, \
             (SELECT COUNT(*) FROM blocks b WHERE b.blocker_id = $2 AND b.blocked_id = $1) AS blocked_by_me \
             FROM profiles p WHERE p.user_id = $1 AND p.site_id = $3",
        )
        .bind(other)
        .bind(me.id)
        .bind(site.id)
        .fetch_optional(self.pool())
        .await?;
        let Some(row) = row else { return Err(LikeError::NotFound) };
        if row.try_get::<i64, _>("blocked_me")? > 0 {
            return Err(LikeError::BlockedByOther);
        }
        if !crate::db::flag(&row, "searchable")? || row.try_get::<i64, _>("blocked_by_me")? > 0 {
            return Err(LikeError::NotFound);
        }
        let mut tx = self.pool().begin().await?;
        if source == LikeSource::Swipe && !me.paid_user {
            // Under the member's row lock, so that quick swipes cannot pass the allowance.
            sqlx::query("UPDATE users SET status = status WHERE id = $1").bind(me.id).execute(&mut *tx).await?;
            let allowance = swipe_allowance(false, &recent_swipes(&mut *tx, me.id, now).await?, now);
            if allowance.remaining == Some(0) {
                return Err(LikeError::DailyLimit { next_at: allowance.next_at.unwrap_or(now) });
            }
        }
        sqlx::query("INSERT INTO likes (liker_id, liked_id, created_at, seen, source) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (liker_id, liked_id) DO NOTHING")
            .bind(me.id)
            .bind(other)
            .bind(now)
            .bind(false)
            .bind(source.code())
            .execute(&mut *tx)
            .await?;
        let back: Option<(i64,)> = sqlx::query_as("SELECT liker_id FROM likes WHERE liker_id = $1 AND liked_id = $2").bind(other).bind(me.id).fetch_optional(&mut *tx).await?;
        tx.commit().await?;
        Ok(LikeOutcome { matched: back.is_some() })
    }

    /// Profiles for the swipe game: visible members of the genders the member looks for, not
    /// liked yet, not passed on in the last week, not blocked either way; most recently active first.
    pub async fn swipe_candidates(&self, site: &SiteSettings, me: i64, genders: &[&str], now: i64, today: Ymd, limit: i64) -> Result<Vec<MemberCard>, AppError> {
        let wanted: Vec<String> = genders.iter().filter(|g| ["male", "female"].contains(g)).map(|g| format!("'{g}'")).collect();
        // Gender codes come from our own list above, never from the request.
        let gender_clause = if wanted.is_empty() { String::new() } else { format!(" AND p.gender IN ({})", wanted.join(", ")) };
        let sql = format!(
            "SELECT {CARD_COLUMNS} FROM profiles p WHERE p.site_id = $2 AND p.searchable = $3 AND p.user_id <> $1{gender_clause} \
             AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.liker_id = $1 AND l.liked_id = p.user_id) \
             AND NOT EXISTS (SELECT 1 FROM swipe_passes s WHERE s.user_id = $1 AND s.passed_id = p.user_id AND s.created_at > $4) \
             AND {NOT_BLOCKED} ORDER BY p.last_active DESC LIMIT {limit}"
        );
        let rows = sqlx::query(&sql).bind(me).bind(site.id).bind(true).bind(now - 7 * 86_400).fetch_all(self.pool()).await?;
        Ok(rows.iter().map(|r| self.members.card(r, today)).collect::<Result<_, _>>()?)
    }

    /// A pass in the swipe game: that profile stays out of the stack for a week.
    pub async fn pass(&self, me: i64, other: i64, now: i64) -> Result<(), AppError> {
        sqlx::query("INSERT INTO swipe_passes (user_id, passed_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, passed_id) DO UPDATE SET created_at = excluded.created_at")
            .bind(me)
            .bind(other)
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Takes back my like (a match ends with it).
    pub async fn unlike(&self, me: i64, other: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM likes WHERE liker_id = $1 AND liked_id = $2").bind(me).bind(other).execute(self.pool()).await?;
        Ok(())
    }

    /// The swipe game's allowance for this member now.
    pub async fn allowance(&self, me: &Member, now: i64) -> Result<Allowance, AppError> {
        Ok(swipe_allowance(me.paid_user, &recent_swipes(self.pool(), me.id, now).await?, now))
    }

    /// Whether I liked them and they liked me.
    pub async fn state(&self, me: i64, other: i64) -> Result<LikeState, AppError> {
        let rows: Vec<(i64,)> = sqlx::query_as("SELECT liker_id FROM likes WHERE (liker_id = $1 AND liked_id = $2) OR (liker_id = $2 AND liked_id = $1)")
            .bind(me)
            .bind(other)
            .fetch_all(self.pool())
            .await?;
        Ok(LikeState { i_liked: rows.iter().any(|(l,)| *l == me), they_liked: rows.iter().any(|(l,)| *l == other) })
    }

    /// Opening a profile clears its new-like flag (SPEC §4).
    pub async fn mark_seen(&self, me: i64, other: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE likes SET seen = $1 WHERE liker_id = $2 AND liked_id = $3").bind(true).bind(other).bind(me).execute(self.pool()).await?;
        Ok(())
    }

    /// New likes from members I can still see (the top bar's pill).
    pub async fn new_likes(&self, me: i64) -> Result<i64, AppError> {
        let (n,): (i64,) = sqlx::query_as(&format!(
            "SELECT COUNT(*) FROM likes l JOIN profiles p ON p.user_id = l.liker_id WHERE l.liked_id = $1 AND l.seen = $2 AND p.searchable = $3 AND {NOT_BLOCKED}"
        ))
        .bind(me)
        .bind(false)
        .bind(true)
        .fetch_one(self.pool())
        .await?;
        Ok(n)
    }

    /// One likes page: received ones new first then newest; given and matches newest first.
    /// Hidden and blocked members are left out.
    pub async fn list(&self, site: &SiteSettings, me: i64, kind: LikeKind, today: Ymd, limit: i64) -> Result<Vec<LikedCard>, AppError> {
        let sql = match kind {
            LikeKind::Received => format!(
                "SELECT {CARD_COLUMNS}, l.created_at AS liked_at, l.seen FROM likes l JOIN profiles p ON p.user_id = l.liker_id \
                 WHERE l.liked_id = $1 AND p.site_id = $2 AND p.searchable = $3 AND {NOT_BLOCKED} ORDER BY l.seen, l.created_at DESC LIMIT {limit}"
            ),
            LikeKind::Given => format!(
                "SELECT {CARD_COLUMNS}, l.created_at AS liked_at, $3 AS seen FROM likes l JOIN profiles p ON p.user_id = l.liked_id \
                 WHERE l.liker_id = $1 AND p.site_id = $2 AND p.searchable = $3 AND {NOT_BLOCKED} ORDER BY l.created_at DESC LIMIT {limit}"
            ),
            LikeKind::Matches => format!(
                "SELECT {CARD_COLUMNS}, CASE WHEN l.created_at > r.created_at THEN l.created_at ELSE r.created_at END AS liked_at, r.seen \
                 FROM likes l JOIN likes r ON r.liker_id = l.liked_id AND r.liked_id = l.liker_id JOIN profiles p ON p.user_id = l.liked_id \
                 WHERE l.liker_id = $1 AND p.site_id = $2 AND p.searchable = $3 AND {NOT_BLOCKED} ORDER BY liked_at DESC LIMIT {limit}"
            ),
        };
        let rows = sqlx::query(&sql).bind(me).bind(site.id).bind(true).fetch_all(self.pool()).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(LikedCard { card: self.members.card(&row, today)?, new: !crate::db::flag(&row, "seen")?, at: row.try_get("liked_at")? });
        }
        Ok(out)
    }
}
