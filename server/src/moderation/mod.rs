//! The profile-text queue (`domain::moderation`, `/staff/texts`, moderators and admins): a
//! changed "about me" text waits in `profiles.about_draft` while others keep seeing the text
//! approved before; staff approve it, turn it down with a reason (the member is told on their
//! profile page) or turn it down and block the member — one by one or many at once. Each
//! decision applies only to the very text staff saw (its moment of change), once, with a line in
//! the staff log, so decisions and the log always reconcile.
//!
//! A [`TextClassifier`] may pre-sort the queue (most likely refusals first, with a suggested
//! reason); it never decides. It is off unless configured (`VONK_TEXT_CLASSIFIER=local`); a
//! provider or a model is another variant beside the local rules. The chat-photo queue is the
//! chat's (`crate::chat::photo_review`); its [`PhotoClassifier`] is here.

pub use domain::moderation::QueuedText;
use domain::moderation::{Decision, Reason, TextStatus, Verdict};
use domain::staff::StaffArea;

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::staff::{record, require_staff};

/// Texts one queue page shows at most.
pub const QUEUE_PAGE: i64 = 50;

/// What pre-sorts the queue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TextClassifier {
    /// Nothing: the queue is oldest first.
    #[default]
    Off,
    /// The built-in rules (`domain::moderation::local_verdict`).
    Local,
    /// The same verdict for every text (a test double).
    Fixed(Verdict),
}

impl TextClassifier {
    /// From the configuration's value: `off` (or nothing) or `local`.
    pub fn from_setting(value: Option<&str>) -> Result<TextClassifier, String> {
        match value.map(str::trim) {
            None | Some("") | Some("off") => Ok(TextClassifier::Off),
            Some("local") => Ok(TextClassifier::Local),
            Some(other) => Err(format!("{other}: off or local")),
        }
    }

    pub fn verdict(&self, text: &str) -> Option<Verdict> {
        match self {
            TextClassifier::Off => None,
            TextClassifier::Local => Some(domain::moderation::local_verdict(text)),
            TextClassifier::Fixed(v) => Some(*v),
        }
    }
}

/// What looks at members' chat photos as they are sent: a photo it flags (a verdict from
/// `domain::moderation::FLAGGED_SCORE`) waits for staff whatever the site's share, hidden from
/// its recipient, first in the queue with the suggested reason. Off unless configured; a nudity
/// model or a provider is another variant beside the list of known photos.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PhotoClassifier {
    #[default]
    Off,
    /// Known photos (known abuse imagery a hotline or the operator keeps) by their difference
    /// hash (`VONK_PHOTO_HASHES`, `vonk photo-hash`): a match is flagged as illegal.
    KnownHashes(std::sync::Arc<[u64]>),
    /// The same verdict for every photo (a test double).
    Fixed(Verdict),
}

impl PhotoClassifier {
    /// The view of a photo by its difference hash.
    pub fn verdict(&self, hash: u64) -> Option<Verdict> {
        match self {
            PhotoClassifier::Off => None,
            PhotoClassifier::KnownHashes(known) => Some(if domain::moderation::known_photo(hash, known) {
                Verdict { score: 100, reason: Some(Reason::Illegal) }
            } else {
                Verdict { score: 0, reason: None }
            }),
            PhotoClassifier::Fixed(v) => Some(*v),
        }
    }
}

#[derive(sqlx::FromRow)]
struct QueueRow {
    user_id: i64,
    name: String,
    about_draft: String,
    about: Option<String>,
    about_changed_at: i64,
    about_score: Option<i64>,
    about_reason: Option<String>,
}

/// Where the member's own text stands, for their profile page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnText {
    pub status: Option<TextStatus>,
    pub reason: Option<Reason>,
}

/// The text saved by a member: nothing to review when it is empty or the text shown already.
/// Otherwise it waits (a new moment of change: a decision on the text before applies no more).
pub(crate) async fn submit(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    classifier: &TextClassifier,
    user_id: i64,
    text: Option<&str>,
    now: i64,
) -> Result<(), AppError> {
    let (shown,): (Option<String>,) = sqlx::query_as("SELECT about FROM profiles WHERE user_id = $1").bind(user_id).fetch_one(&mut **tx).await?;
    match text.filter(|t| !t.is_empty()) {
        None => {
            sqlx::query(
                "UPDATE profiles SET about = NULL, about_draft = NULL, about_status = NULL, about_reason = NULL, about_score = NULL WHERE user_id = $1",
            )
            .bind(user_id)
            .execute(&mut **tx)
            .await?;
        }
        Some(text) if shown.as_deref() == Some(text) => {
            sqlx::query("UPDATE profiles SET about_draft = NULL, about_status = NULL, about_reason = NULL, about_score = NULL WHERE user_id = $1")
                .bind(user_id)
                .execute(&mut **tx)
                .await?;
        }
        Some(text) => {
            let (score, reason) = Verdict::columns(classifier.verdict(text));
            sqlx::query(
                "UPDATE profiles SET about_draft = $1, about_status = $2, about_reason = $3, about_score = $4, \
                 about_changed_at = CASE WHEN about_changed_at IS NOT NULL AND about_changed_at >= $5 THEN about_changed_at + 1 ELSE $5 END WHERE user_id = $6",
            )
            .bind(text)
            .bind(TextStatus::Waiting.as_str())
            .bind(reason)
            .bind(score)
            .bind(now)
            .bind(user_id)
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

/// The member's text as their editor shows it (the draft when there is one) and where it stands.
pub(crate) async fn own(db: &Db, user_id: i64) -> Result<(Option<String>, OwnText), AppError> {
    #[derive(sqlx::FromRow)]
    struct Row {
        about: Option<String>,
        about_draft: Option<String>,
        about_status: Option<String>,
        about_reason: Option<String>,
    }
    let row: Option<Row> = sqlx::query_as("SELECT about, about_draft, about_status, about_reason FROM profiles WHERE user_id = $1")
        .bind(user_id)
        .fetch_optional(db.pool())
        .await?;
    let Some(Row { about, about_draft: draft, about_status: status, about_reason: reason }) = row else {
        return Ok((None, OwnText { status: None, reason: None }));
    };
    let status = status.as_deref().and_then(TextStatus::parse);
    // A waiting text's reason is the classifier's guess: the member is told only staff's.
    let reason = reason.as_deref().and_then(Reason::parse).filter(|_| status == Some(TextStatus::Rejected));
    Ok((draft.or(about), OwnText { status, reason }))
}

impl crate::staff::Staff {
    /// Texts waiting, for moderators and admins: most likely refusals first when a classifier
    /// scored them, then the oldest.
    pub async fn text_queue(&self, staff: &Member, site_id: i64) -> Result<Vec<QueuedText>, AppError> {
        require_staff(staff, site_id, StaffArea::Photos)?;
        let rows: Vec<QueueRow> = sqlx::query_as(
            "SELECT user_id, name, about_draft, about, about_changed_at, about_score, about_reason FROM profiles \
             WHERE site_id = $1 AND about_status = $2 AND about_draft IS NOT NULL \
             ORDER BY COALESCE(about_score, 0) DESC, about_changed_at, user_id LIMIT $3",
        )
        .bind(site_id)
        .bind(TextStatus::Waiting.as_str())
        .bind(QUEUE_PAGE)
        .fetch_all(self.db().pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| QueuedText {
                user_id: r.user_id,
                name: r.name,
                text: r.about_draft,
                shown: r.about,
                changed_at: r.about_changed_at,
                verdict: Verdict::from_columns(r.about_score, r.about_reason.as_deref()),
            })
            .collect())
    }

    /// Decides on texts, each named by its member and moment of change: a text changed since
    /// (or decided already, by a colleague or a second click) is left alone. Answers how many
    /// were decided; each is a staff-log line.
    pub async fn review_texts(&self, staff: &Member, site_id: i64, texts: &[(i64, i64)], decision: Decision, now: i64) -> Result<usize, AppError> {
        require_staff(staff, site_id, StaffArea::Photos)?;
        let mut decided = 0;
        let mut blocked = false;
        for &(user_id, changed_at) in texts {
            if user_id == staff.id && matches!(decision, Decision::Block(_)) {
                continue;
            }
            let mut tx = self.db().begin().await?;
            let moved = match decision {
                Decision::Approve => sqlx::query(
                    "UPDATE profiles SET about = about_draft, about_draft = NULL, about_status = NULL, about_reason = NULL, about_score = NULL \
                     WHERE user_id = $1 AND site_id = $2 AND about_status = $3 AND about_changed_at = $4",
                )
                .bind(user_id)
                .bind(site_id)
                .bind(TextStatus::Waiting.as_str())
                .bind(changed_at),
                Decision::Reject(reason) | Decision::Block(reason) => sqlx::query(
                    "UPDATE profiles SET about_status = $5, about_reason = $6, about_score = NULL \
                     WHERE user_id = $1 AND site_id = $2 AND about_status = $3 AND about_changed_at = $4",
                )
                .bind(user_id)
                .bind(site_id)
                .bind(TextStatus::Waiting.as_str())
                .bind(changed_at)
                .bind(TextStatus::Rejected.as_str())
                .bind(reason.as_str()),
            }
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if moved == 0 {
                continue;
            }
            if let Decision::Block(_) = decision {
                crate::accounts::block_in(&mut tx, user_id).await?;
                crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
                blocked = true;
            }
            let detail = decision.reason().map(|r| r.as_str()).unwrap_or_default();
            record(&mut tx, site_id, staff, decision.action(), &format!("member #{user_id}"), detail, now).await?;
            tx.commit().await?;
            decided += 1;
        }
        if blocked {
            crate::members::search_cache::invalidate();
        }
        Ok(decided)
    }
}
