//! The parts of a member's file staff open on purpose (`/staff/members`, support and admins):
//! the complaints by and about the member, their conversations — read only with a reason, each
//! reading in the staff log — and, for a GDPR request, their data export (a route of its own,
//! `http::staff_routes`) and the deletion of the account ([`super::MemberChange::Delete`]).

use domain::chat::MessageKind;
use domain::staff::StaffArea;

use super::{require_staff, Staff};
use crate::accounts::Member;
use crate::error::AppError;

/// Conversations and messages a reading shows at most.
pub const READ_LIMIT: i64 = 200;

/// A complaint in the member file.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ComplaintLine {
    pub id: i64,
    pub reference: String,
    pub category: String,
    pub status: String,
    pub created_at: i64,
    pub body: String,
    /// Filed by the member (otherwise about them).
    #[sqlx(try_from = "domain::rows::Flag")]
    pub by_member: bool,
}

/// One of the member's conversations.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ConversationLine {
    pub id: i64,
    pub peer_id: i64,
    pub peer_name: String,
    pub messages: i64,
    pub last_at: i64,
}

/// A message as staff read it (a photo or gift named, not shown).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ReadMessage {
    pub id: i64,
    pub sender_id: i64,
    pub kind: String,
    pub body: String,
    pub gift: Option<String>,
    pub created_at: i64,
}

impl Staff {
    /// The site's member `user_id` (not deleted), or `not_found`.
    async fn on_site(&self, site_id: i64, user_id: i64) -> Result<(), AppError> {
        let found: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE id = $1 AND site_id = $2 AND status <> $3")
            .bind(user_id)
            .bind(site_id)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_optional(self.db.pool())
            .await?;
        found.map(drop).ok_or_else(|| domain::ErrorCode::NotFound.into())
    }

    /// The complaints filed by the member and about them, newest first.
    pub async fn member_complaints(&self, staff: &Member, site_id: i64, user_id: i64) -> Result<Vec<ComplaintLine>, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        self.on_site(site_id, user_id).await?;
        Ok(sqlx::query_as(
            "SELECT id, reference, category, status, created_at, body, (reporter_id = $1) AS by_member FROM complaints \
             WHERE site_id = $2 AND (reporter_id = $1 OR member_id = $1) ORDER BY id DESC LIMIT $3",
        )
        .bind(user_id)
        .bind(site_id)
        .bind(READ_LIMIT)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The member's conversations, newest first, for a reason that goes to the staff log.
    pub async fn member_conversations(&self, staff: &Member, site_id: i64, user_id: i64, why: &str, now: i64) -> Result<Vec<ConversationLine>, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        let why = domain::staff::validate_staff_reason(why)?;
        self.on_site(site_id, user_id).await?;
        let rows = sqlx::query_as(
            "SELECT c.id, p.user_id AS peer_id, p.name AS peer_name, (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id) AS messages, \
             COALESCE((SELECT MAX(m.created_at) FROM messages m WHERE m.conversation_id = c.id), c.created_at) AS last_at \
             FROM conversations c JOIN profiles p ON p.user_id = CASE WHEN c.low_id = $1 THEN c.high_id ELSE c.low_id END \
             WHERE c.site_id = $2 AND (c.low_id = $1 OR c.high_id = $1) ORDER BY c.last_message_id DESC, c.id DESC LIMIT $3",
        )
        .bind(user_id)
        .bind(site_id)
        .bind(READ_LIMIT)
        .fetch_all(self.db.pool())
        .await?;
        self.note(staff, site_id, "conversations_listed", &format!("member #{user_id}"), &why, now).await?;
        Ok(rows)
    }

    /// One of the member's conversations, oldest message first (the last [`READ_LIMIT`]), for a
    /// reason that goes to the staff log. A conversation the member is not in is `not_found`.
    pub async fn read_conversation(
        &self,
        staff: &Member,
        site_id: i64,
        user_id: i64,
        conversation: i64,
        why: &str,
        now: i64,
    ) -> Result<Vec<ReadMessage>, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        let why = domain::staff::validate_staff_reason(why)?;
        self.on_site(site_id, user_id).await?;
        let theirs: Option<(i64,)> = sqlx::query_as("SELECT id FROM conversations WHERE id = $1 AND site_id = $2 AND (low_id = $3 OR high_id = $3)")
            .bind(conversation)
            .bind(site_id)
            .bind(user_id)
            .fetch_optional(self.db.pool())
            .await?;
        theirs.ok_or(domain::ErrorCode::NotFound)?;
        let mut rows: Vec<ReadMessage> = sqlx::query_as(
            "SELECT id, sender_id, kind, CASE WHEN kind = $2 THEN body ELSE '' END AS body, gift, created_at FROM messages \
             WHERE conversation_id = $1 ORDER BY id DESC LIMIT $3",
        )
        .bind(conversation)
        .bind(MessageKind::Text.as_str())
        .bind(READ_LIMIT)
        .fetch_all(self.db.pool())
        .await?;
        rows.reverse();
        self.note(staff, site_id, "conversation_read", &format!("member #{user_id}, conversation #{conversation}"), &why, now).await?;
        Ok(rows)
    }

    /// Logs a data export for a GDPR request, with its reason, before the file is made; the
    /// caller sends the file (`http::staff_routes`).
    pub async fn member_exported(&self, staff: &Member, site_id: i64, user_id: i64, why: &str, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        let why = domain::staff::validate_staff_reason(why)?;
        self.on_site(site_id, user_id).await?;
        self.note(staff, site_id, "export", &format!("member #{user_id} data"), &why, now).await
    }
}
