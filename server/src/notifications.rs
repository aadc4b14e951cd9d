//! Notifications (`/notifications`): likes, matches and system notices, newest first, with their
//! read state. Likes and matches are recorded in the same transaction as the like itself
//! ([`record`]); system notices (photo reviewed, welcome) by the services that cause them.
//! Notifications from members who are hidden now, or blocked either way, are left out.

use domain::account::Ymd;
use domain::notifications::{Cursor, NotificationKind};
use domain::search::MemberCard;
use sqlx::{Any, Row, Transaction};

use crate::error::AppError;
use crate::members::Members;

/// One line on the notifications page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotificationItem {
    pub id: i64,
    pub kind: NotificationKind,
    /// The other member of a like or match.
    pub actor: Option<MemberCard>,
    pub created_at: i64,
    pub read: bool,
}

/// Notifications (`n`) whose actor the member (`$me`, an SQL expression) can still see: system
/// notices, and members who are visible and not blocked either way. A macro so that the
/// member's counters (with `u.id`) and the list (with `$1`) share the one rule.
macro_rules! visible_notifications {
    ($me:literal) => {
        concat!("(n.actor_id IS NULL OR (", $crate::visibility::sees!($me, "n.actor_id"), "))")
    };
}
pub(crate) use visible_notifications;

const VISIBLE: &str = visible_notifications!("$1");

/// Records a notification inside the caller's transaction.
pub(crate) async fn record(tx: &mut Transaction<'_, Any>, user_id: i64, kind: NotificationKind, actor: Option<i64>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO notifications (user_id, kind, actor_id, created_at) VALUES ($1, $2, $3, $4)")
        .bind(user_id)
        .bind(kind.code())
        .bind(actor)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[derive(Clone, Debug)]
pub struct Notifications {
    members: Members,
}

impl Notifications {
    pub fn new(members: Members) -> Notifications {
        Notifications { members }
    }

    fn pool(&self) -> &sqlx::AnyPool {
        self.members.db().pool()
    }

    /// A system notice (no other member involved).
    pub async fn notify(&self, user_id: i64, kind: NotificationKind, now: i64) -> Result<(), AppError> {
        let mut tx = self.members.db().begin().await?;
        record(&mut tx, user_id, kind, None, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// The member's notifications, newest first.
    pub async fn list(&self, me: i64, today: Ymd, limit: i64) -> Result<Vec<NotificationItem>, AppError> {
        self.page(me, today, None, limit).await
    }

    /// One page of the member's notifications, newest first, older than `before` when given.
    ///
    /// A page with nothing unread is kept between requests while neither the member nor anyone
    /// on it changed ([`crate::member_cache`]); one with unread lines is about to be marked read.
    pub async fn page(&self, me: i64, today: Ymd, before: Option<Cursor>, limit: i64) -> Result<Vec<NotificationItem>, AppError> {
        let key = format!("notifications/{}/{limit}/{}", before.map(|c| c.to_param()).unwrap_or_default(), today.iso());
        let read = || self.read_page(me, today, before, limit);
        let keep = |list: &Vec<NotificationItem>| list.iter().all(|n| n.read).then(|| list.iter().filter_map(|n| n.actor.as_ref().map(|a| a.id)).collect());
        self.members.member_cache().page_or_read(me, key, read, keep).await
    }

    async fn read_page(&self, me: i64, today: Ymd, before: Option<Cursor>, limit: i64) -> Result<Vec<NotificationItem>, AppError> {
        let before = before.unwrap_or(Cursor { at: i64::MAX, id: i64::MAX });
        let sql = format!(
            "SELECT n.id, n.kind, n.created_at, n.read_at, p.user_id, p.name, p.date_of_birth, p.city, p.region, p.main_thumb, p.fictional \
             FROM notifications n LEFT JOIN profiles p ON p.user_id = n.actor_id \
             WHERE n.user_id = $1 AND (n.created_at < $2 OR (n.created_at = $2 AND n.id < $3)) AND {VISIBLE} \
             ORDER BY n.created_at DESC, n.id DESC LIMIT {limit}"
        );
        let rows = sqlx::query(&sql).bind(me).bind(before.at).bind(before.id).fetch_all(self.pool()).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let code: String = row.try_get("kind")?;
            let Some(kind) = NotificationKind::parse(&code) else { continue };
            let actor = if kind.has_actor() { Some(self.members.card(&row, today)?) } else { None };
            out.push(NotificationItem {
                id: row.try_get("id")?,
                kind,
                actor,
                created_at: row.try_get("created_at")?,
                read: row.try_get::<Option<i64>, _>("read_at")?.is_some(),
            });
        }
        Ok(out)
    }

    /// Unread notifications the member can see (the bell's pill).
    pub async fn unread(&self, me: i64) -> Result<i64, AppError> {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM notifications n WHERE n.user_id = $1 AND n.read_at IS NULL AND {VISIBLE}"))
            .bind(me)
            .fetch_one(self.pool())
            .await?;
        Ok(n)
    }

    /// Marks the member's notifications up to `through` (an id: the newest one a page showed)
    /// read, so that one that arrives while the page is made stays new; returns how many were
    /// unread.
    pub async fn mark_read_through(&self, me: i64, through: i64, now: i64) -> Result<u64, AppError> {
        let done = sqlx::query("UPDATE notifications SET read_at = $1 WHERE user_id = $2 AND read_at IS NULL AND id <= $3")
            .bind(now)
            .bind(me)
            .bind(through)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected())
    }
}
