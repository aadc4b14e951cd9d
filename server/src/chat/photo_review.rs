//! Chat photos in staff's review (`domain::moderation`, `/staff/chat-photos`, moderators and
//! admins). A member's photo waits when the site's share picks it at the send
//! (`sites.chat_photo_review_percent`) or a classifier flags it ([`PhotoClassifier`], then always
//! hidden). It is delivered and paid for as any photo; while it waits the recipient sees it or
//! not (`sites.chat_photo_hide_waiting`, read at the send). Staff approve it (the recipient sees
//! it from then on), turn it down with a reason (never shown to the recipient again; the sender
//! sees why beside it) or turn it down and block the sender. A decision applies to a photo that
//! still waits, once, with a staff-log line each, so decisions and the log reconcile.
//!
//! Staff see a waiting photo's bytes through [`Chat::queued_photo`] only: a photo that went out
//! unreviewed, or was decided, is the members' conversation (read with a logged reason in the
//! member file).

pub use domain::moderation::QueuedChatPhoto;
use domain::moderation::{Decision, PhotoReview, Reason, Verdict};
use domain::staff::StaffArea;

use super::Chat;
use crate::accounts::Member;
use crate::error::AppError;
use crate::moderation::QUEUE_PAGE;
use crate::staff::{record, require_staff};

#[derive(sqlx::FromRow)]
struct QueueRow {
    id: i64,
    sender_id: i64,
    sender_name: String,
    recipient_id: i64,
    recipient_name: String,
    created_at: i64,
    photo_review: String,
    photo_score: Option<i64>,
    photo_reason: Option<String>,
}

impl Chat {
    /// Photos waiting, for moderators and admins: flagged ones first (highest score), then the
    /// oldest. A blocked sender's photos stay until decided (a photo sent before a block still
    /// reached its recipient); a deleted member's photos are gone with their files.
    pub async fn photo_queue(&self, staff: &Member, site_id: i64) -> Result<Vec<QueuedChatPhoto>, AppError> {
        require_staff(staff, site_id, StaffArea::Photos)?;
        let rows: Vec<QueueRow> = sqlx::query_as(
            "SELECT m.id, m.sender_id, sp.name AS sender_name, m.recipient_id, rp.name AS recipient_name, m.created_at, m.photo_review, m.photo_score, m.photo_reason \
             FROM messages m JOIN users s ON s.id = m.sender_id JOIN profiles sp ON sp.user_id = m.sender_id JOIN profiles rp ON rp.user_id = m.recipient_id \
             WHERE m.photo_review IN ($1, $2) AND s.site_id = $3 AND m.photo_key IS NOT NULL ORDER BY COALESCE(m.photo_score, 0) DESC, m.id LIMIT $4",
        )
        .bind(PhotoReview::Waiting.as_str())
        .bind(PhotoReview::Hidden.as_str())
        .bind(site_id)
        .bind(QUEUE_PAGE)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| QueuedChatPhoto {
                message_id: r.id,
                sender_id: r.sender_id,
                sender_name: r.sender_name,
                recipient_id: r.recipient_id,
                recipient_name: r.recipient_name,
                sent_at: r.created_at,
                hidden: PhotoReview::parse(&r.photo_review) == Some(PhotoReview::Hidden),
                verdict: Verdict::from_columns(r.photo_score, r.photo_reason.as_deref()),
            })
            .collect())
    }

    /// A waiting photo's bytes for staff of its site (moderators and admins); None for any other
    /// photo, or anyone else.
    pub async fn queued_photo(&self, staff: &Member, site_id: i64, message_id: i64) -> Result<Option<Vec<u8>>, AppError> {
        require_staff(staff, site_id, StaffArea::Photos)?;
        let key: Option<(String,)> = sqlx::query_as(
            "SELECT m.photo_key FROM messages m JOIN users s ON s.id = m.sender_id \
             WHERE m.id = $1 AND s.site_id = $2 AND m.photo_review IN ($3, $4) AND m.photo_key IS NOT NULL",
        )
        .bind(message_id)
        .bind(site_id)
        .bind(PhotoReview::Waiting.as_str())
        .bind(PhotoReview::Hidden.as_str())
        .fetch_optional(self.pool())
        .await?;
        let (Some((key,)), Some(media)) = (key, self.media.as_ref()) else { return Ok(None) };
        media.get(&key).await
    }

    /// Decides on waiting photos, each named by its message: a photo decided already (by a
    /// colleague, a second click) is left alone. Answers how many were decided; each is a
    /// staff-log line. Blocking ends the sender's sessions and takes them out of the search.
    pub async fn review_photos(&self, staff: &Member, site_id: i64, messages: &[i64], decision: Decision, now: i64) -> Result<usize, AppError> {
        require_staff(staff, site_id, StaffArea::Photos)?;
        let (status, reason) = match decision {
            Decision::Approve => (PhotoReview::Approved, None),
            Decision::Reject(r) | Decision::Block(r) => (PhotoReview::Rejected, Some(r)),
        };
        let mut decided = 0;
        let mut blocked = false;
        for &id in messages {
            let mut tx = self.db().begin().await?;
            // Only a photo of the site that still waits moves, and answers whose it is.
            let moved: Option<(i64,)> = sqlx::query_as(
                "UPDATE messages SET photo_review = $1, photo_reason = $2, photo_score = NULL \
                 WHERE id = $3 AND photo_review IN ($4, $5) AND sender_id IN (SELECT id FROM users WHERE site_id = $6) RETURNING sender_id",
            )
            .bind(status.as_str())
            .bind(reason.map(Reason::as_str))
            .bind(id)
            .bind(PhotoReview::Waiting.as_str())
            .bind(PhotoReview::Hidden.as_str())
            .bind(site_id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some((sender,)) = moved else { continue };
            if matches!(decision, Decision::Block(_)) && sender != staff.id {
                crate::accounts::block_in(&mut tx, sender).await?;
                crate::members::search::refresh_searchable(&mut *tx, sender).await?;
                blocked = true;
            }
            let detail = reason.map(Reason::as_str).unwrap_or_default();
            record(&mut tx, site_id, staff, decision.photo_action(), &format!("message #{id} of member #{sender}"), detail, now).await?;
            tx.commit().await?;
            decided += 1;
        }
        if blocked {
            crate::members::search_cache::invalidate();
        }
        Ok(decided)
    }
}
