//! The lifecycle messages about what happened while the member was away: the digest of unread
//! messages, the digest of new likes and matches, and a premium member's low balance.
//!
//! A digest is queued when the first thing it tells of happens (one job per member and day,
//! the site's `digest_after_hours` later, 6 by default) and looks again when it runs: what was
//! read, opened or seen in the meantime, and what a mail already told of, is left out, and a
//! digest with nothing left drops itself.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use domain::jobs::JobKind;
use domain::lifecycle::{LifecycleKind, LOW_BALANCE_CREDITS};
use domain::site::SiteSettings;

use super::{Gate, Lifecycle, DAY};
use crate::accounts::LifecycleNotice;
use crate::db::Db;
use crate::error::AppError;
use crate::jobs::{Job, Outcome};

/// The most names a digest lists.
const NAMES_SHOWN: usize = 3;

/// The (kind, member) digests this service queued today: a busy conversation queues its
/// member's digest once, not once per message. Forgotten wholesale when it grows large (the
/// queue's unique key still keeps one job per digest and day).
#[derive(Debug, Clone, Default)]
pub struct DigestNotes(Arc<Mutex<HashMap<(JobKind, i64), i64>>>);

impl DigestNotes {
    async fn queue(&self, db: &Db, kind: JobKind, site: &SiteSettings, user_id: i64, now: i64) -> Result<(), AppError> {
        let day = now / DAY;
        {
            let mut queued = self.0.lock().unwrap_or_else(|e| e.into_inner());
            if queued.get(&(kind, user_id)) == Some(&day) {
                return Ok(());
            }
            if queued.len() > 100_000 {
                queued.clear();
            }
            queued.insert((kind, user_id), day);
        }
        let mut tx = db.begin().await?;
        let key = format!("{}:{user_id}:{day}", kind.as_str());
        let after = site.lifecycle_timing().digest_after_secs;
        crate::jobs::enqueue(&mut tx, Some(site.id), kind, &key, &serde_json::json!({ "user_id": user_id }), now + after, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// A message reached a (real) member: their digest of unread messages for today is queued.
    pub async fn note_message(&self, db: &Db, site: &SiteSettings, to_user: i64, now: i64) -> Result<(), AppError> {
        self.queue(db, JobKind::UnreadDigest, site, to_user, now).await
    }

    /// A new like or match reached a member: their digest of likes for today is queued.
    pub async fn note_like(&self, db: &Db, site: &SiteSettings, to_user: i64, now: i64) -> Result<(), AppError> {
        self.queue(db, JobKind::LikesDigest, site, to_user, now).await
    }
}

/// A premium member's send took the balance low: the low-balance message is queued, inside the
/// send's transaction (one per fall: `message_id` is the send's).
pub async fn note_low_balance(
    tx: &mut sqlx::Transaction<'static, sqlx::Any>,
    site: &SiteSettings,
    user_id: i64,
    message_id: i64,
    now: i64,
) -> Result<(), AppError> {
    let key = format!("low_balance:{user_id}:{message_id}");
    let after = site.lifecycle_timing().low_balance_after_secs;
    crate::jobs::enqueue(tx, Some(site.id), JobKind::LowBalance, &key, &serde_json::json!({ "user_id": user_id }), now + after, now).await
}

/// "Anna, Sanne, Eva": the first names of a digest, in the order given.
fn names(all: &[String]) -> String {
    let mut shown: Vec<&str> = Vec::new();
    for name in all {
        if !shown.contains(&name.as_str()) && shown.len() < NAMES_SHOWN {
            shown.push(name);
        }
    }
    shown.join(", ")
}

fn user_of(job: &Job) -> Option<i64> {
    job.payload.get("user_id").and_then(|v| v.as_i64())
}

impl Lifecycle {
    /// The conversations still unread that no mail told of: "unread messages from …", to the
    /// one conversation or the list. They count as told afterwards (until read, as
    /// `Accounts::mail_message`'s mails do).
    pub(super) async fn unread_digest(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        let Some(user_id) = user_of(job) else { return Ok(Outcome::Dropped("payload")) };
        let Some(member) = self.accounts.member(user_id).await? else { return Ok(Outcome::Dropped("account")) };
        let Some(site) = self.sites.by_id(member.site_id) else { return Ok(Outcome::Dropped("site")) };
        let pool = self.accounts.db().pool();
        let unread: Vec<(i64, i64, String)> = sqlx::query_as(
            "SELECT cm.conversation_id, cm.last_message_id, p.name FROM chat_members cm JOIN profiles p ON p.user_id = cm.peer_id \
             WHERE cm.user_id = $1 AND cm.unread > 0 AND cm.mailed = $2 ORDER BY cm.last_at DESC LIMIT 20",
        )
        .bind(user_id)
        .bind(false)
        .fetch_all(pool)
        .await?;
        if unread.is_empty() {
            return Ok(Outcome::Dropped("read"));
        }
        let channel = match self.gate(&member, LifecycleKind::UnreadDigest, site.settings.unread_digest, now).await? {
            Gate::Send(channel) => channel,
            Gate::Not(outcome) => return Ok(outcome),
        };
        let target = match unread.as_slice() {
            [(conversation, _, _)] => format!("/chats/{conversation}"),
            _ => "/chats".to_string(),
        };
        let who = names(&unread.iter().map(|(_, _, name)| name.clone()).collect::<Vec<_>>());
        let notice = LifecycleNotice { kind: LifecycleKind::UnreadDigest, prefix: "lifecycle.unread_digest", vars: vec![("names", who)], target };
        let delivered = self.deliver(&site, &member, &notice, channel, now).await?;
        if delivered {
            for (conversation, last, _) in &unread {
                sqlx::query("UPDATE chat_members SET mailed = $1 WHERE conversation_id = $2 AND user_id = $3 AND last_message_id = $4")
                    .bind(true)
                    .bind(conversation)
                    .bind(user_id)
                    .bind(last)
                    .execute(pool)
                    .await?;
            }
        }
        self.sent(delivered)
    }

    /// The likes and matches not yet seen, from members still visible, that no mail told of:
    /// "new likes from …", to the likes page. They count as told afterwards.
    pub(super) async fn likes_digest(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        let Some(user_id) = user_of(job) else { return Ok(Outcome::Dropped("payload")) };
        let Some(member) = self.accounts.member(user_id).await? else { return Ok(Outcome::Dropped("account")) };
        let Some(site) = self.sites.by_id(member.site_id) else { return Ok(Outcome::Dropped("site")) };
        let pool = self.accounts.db().pool();
        let likes: Vec<(i64, String)> = sqlx::query_as(&format!(
            "SELECT l.liker_id, p.name FROM likes l JOIN profiles p ON p.user_id = l.liker_id \
             WHERE l.liked_id = $1 AND l.seen = $2 AND {sees} \
             AND NOT EXISTS (SELECT 1 FROM like_mails m WHERE m.to_user = $1 AND m.from_user = l.liker_id AND m.mailed_at >= l.created_at) \
             ORDER BY l.created_at DESC LIMIT 20",
            sees = crate::visibility::sees!("$1", "l.liker_id")
        ))
        .bind(user_id)
        .bind(false)
        .fetch_all(pool)
        .await?;
        if likes.is_empty() {
            return Ok(Outcome::Dropped("seen"));
        }
        let channel = match self.gate(&member, LifecycleKind::LikesDigest, site.settings.likes_digest, now).await? {
            Gate::Send(channel) => channel,
            Gate::Not(outcome) => return Ok(outcome),
        };
        let who = names(&likes.iter().map(|(_, name)| name.clone()).collect::<Vec<_>>());
        let notice =
            LifecycleNotice { kind: LifecycleKind::LikesDigest, prefix: "lifecycle.likes_digest", vars: vec![("names", who)], target: "/likes".into() };
        let delivered = self.deliver(&site, &member, &notice, channel, now).await?;
        if delivered {
            for (liker, _) in &likes {
                sqlx::query(
                    "INSERT INTO like_mails (to_user, from_user, mailed_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (to_user, from_user) DO UPDATE SET mailed_at = excluded.mailed_at",
                )
                .bind(user_id)
                .bind(liker)
                .bind(now)
                .execute(pool)
                .await?;
            }
        }
        self.sent(delivered)
    }

    /// "Your credits run low", while the premium member's balance is still low: to the page
    /// that orders a bundle again.
    pub(super) async fn low_balance(&self, job: &Job, now: i64) -> Result<Outcome, AppError> {
        let Some(user_id) = user_of(job) else { return Ok(Outcome::Dropped("payload")) };
        let Some(member) = self.accounts.member(user_id).await? else { return Ok(Outcome::Dropped("account")) };
        if !member.paid_user {
            return Ok(Outcome::Dropped("not_premium"));
        }
        if member.credits > LOW_BALANCE_CREDITS {
            return Ok(Outcome::Dropped("topped_up"));
        }
        let Some(site) = self.sites.by_id(member.site_id) else { return Ok(Outcome::Dropped("site")) };
        let channel = match self.gate(&member, LifecycleKind::LowBalance, site.settings.low_balance, now).await? {
            Gate::Send(channel) => channel,
            Gate::Not(outcome) => return Ok(outcome),
        };
        let notice = LifecycleNotice {
            kind: LifecycleKind::LowBalance,
            prefix: "lifecycle.low_balance",
            vars: vec![("credits", member.credits.to_string())],
            target: "/credits/repeat-order".into(),
        };
        self.sent(self.deliver(&site, &member, &notice, channel, now).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::names;

    #[test]
    fn a_digest_names_three_people_once_each() {
        let all = ["Sanne", "Eva", "Sanne", "Noor", "Lisa"].map(String::from);
        assert_eq!(names(&all), "Sanne, Eva, Noor");
        assert_eq!(names(&all[..1]), "Sanne");
    }
}
