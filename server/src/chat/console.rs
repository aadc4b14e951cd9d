//! The operator console: conversations with fictional profiles, read and answered by staff
//! with the operator role (free of charge, never held).

use domain::chat::{validate_client_id, validate_text};
use domain::widgets::ChatMessage;
use domain::{ApiError, ErrorCode};
use sqlx::Row;

use super::send::{Outgoing, Payer};
use super::store::{MessageRow, MESSAGE_COLUMNS};
use super::{Chat, Content, PeerRow, Sent};
use crate::members::search::CARD_COLUMNS;
use crate::accounts::Member;
use crate::error::AppError;
use crate::sites::Site;

/// A conversation in the operator console.
#[derive(Debug, Clone, PartialEq)]
pub struct OperatorThread {
    pub id: i64,
    /// The operator-run profile.
    pub profile: PeerRow,
    /// The member writing to it.
    pub member: PeerRow,
    pub last: Option<MessageRow>,
    /// The member's messages after the profile's last answer.
    pub waiting: i64,
}

impl Chat {
    /// Operators answer as a fictional profile in one of its conversations (free of charge).
    pub async fn operator_send(&self, site: &Site, operator: &Member, conversation: i64, client_id: &str, text: &str, now: i64) -> Result<Sent, AppError> {
        require_operator(operator)?;
        validate_client_id(client_id)?;
        let text = validate_text(text, site.message_length)?;
        let row = sqlx::query(
            "SELECT c.low_id, c.high_id, (SELECT u.id FROM users u WHERE u.id IN (c.low_id, c.high_id) AND u.fictional = $2 LIMIT 1) AS profile_id \
             FROM conversations c WHERE c.id = $1 AND c.site_id = $3 AND c.fictional = $2",
        )
        .bind(conversation)
        .bind(true)
        .bind(site.id)
        .fetch_optional(self.pool())
        .await?
        .ok_or(ErrorCode::NotFound)?;
        let profile: i64 = row.try_get::<Option<i64>, _>("profile_id")?.ok_or(ErrorCode::NotFound)?;
        let (low, high): (i64, i64) = (row.try_get("low_id")?, row.try_get("high_id")?);
        let member = if low == profile { high } else { low };
        if let Some(sent) = self.already_sent(profile, client_id).await? {
            return Ok(sent);
        }
        let payer = Payer::Operator { operator: operator.id };
        self.store(site, Outgoing { sender: profile, peer: member, client_id, content: Content::Text(text), payer }, now).await
    }

    /// The operator console's conversations: only those with a fictional profile, newest first.
    pub async fn operator_threads(&self, operator: &Member, site_id: i64, now: i64) -> Result<Vec<OperatorThread>, AppError> {
        require_operator(operator)?;
        self.fictional_threads(site_id, None, now).await
    }

    /// Conversations with a fictional profile on a site (or just the one asked for).
    async fn fictional_threads(&self, site_id: i64, only: Option<i64>, now: i64) -> Result<Vec<OperatorThread>, AppError> {
        let one = if only.is_some() { " AND c.id = $3" } else { "" };
        let sql = format!(
            "SELECT c.id, c.low_id, c.high_id, c.last_message_id, (SELECT u.id FROM users u WHERE u.id IN (c.low_id, c.high_id) AND u.fictional = $1 LIMIT 1) AS profile_id \
             FROM conversations c WHERE c.site_id = $2 AND c.fictional = $1{one} ORDER BY c.last_message_id DESC LIMIT 200"
        );
        let mut query = sqlx::query(&sql).bind(true).bind(site_id);
        if let Some(id) = only {
            query = query.bind(id);
        }
        let rows = query.fetch_all(self.pool()).await?;
        // (conversation, profile, member, last message), then three queries for all of them at
        // once: the waiting counts, the cards and the last messages.
        let mut threads = Vec::with_capacity(rows.len());
        for row in &rows {
            let Some(profile) = row.try_get::<Option<i64>, _>("profile_id")? else { continue };
            let (low, high): (i64, i64) = (row.try_get("low_id")?, row.try_get("high_id")?);
            let member = if low == profile { high } else { low };
            threads.push((row.try_get::<i64, _>("id")?, profile, member, row.try_get::<i64, _>("last_message_id")?));
        }
        if threads.is_empty() {
            return Ok(Vec::new());
        }
        // Ids are numbers from our own query, never text from the request.
        let list = |ids: &mut dyn Iterator<Item = i64>| ids.map(|id| id.to_string()).collect::<Vec<_>>().join(", ");
        let conversations = list(&mut threads.iter().map(|t| t.0));
        // The member's messages after the profile's last answer.
        let waiting: std::collections::HashMap<i64, i64> = sqlx::query_as::<_, (i64, i64)>(&format!(
            "SELECT m.conversation_id, COUNT(*) FROM messages m JOIN users s ON s.id = m.sender_id \
             WHERE m.conversation_id IN ({conversations}) AND s.fictional = $1 \
             AND m.id > COALESCE((SELECT MAX(a.id) FROM messages a JOIN users f ON f.id = a.sender_id WHERE a.conversation_id = m.conversation_id AND f.fictional = $2), 0) \
             GROUP BY m.conversation_id"
        ))
        .bind(false)
        .bind(true)
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .collect();
        let people = list(&mut threads.iter().flat_map(|t| [t.1, t.2]));
        let cards = sqlx::query(&format!("SELECT {CARD_COLUMNS} FROM profiles p WHERE p.user_id IN ({people})")).fetch_all(self.pool()).await?;
        let cards: std::collections::HashMap<i64, PeerRow> = cards.iter().map(|r| self.peer_row(r, now).map(|c| (c.id, c))).collect::<Result<_, _>>()?;
        let lasts: Vec<i64> = threads.iter().map(|t| t.3).collect();
        let mut lasts: std::collections::HashMap<i64, MessageRow> = self.rows_by_id(&lasts).await?.into_iter().map(|m| (m.id, m)).collect();
        let mut out = Vec::with_capacity(threads.len());
        for (id, profile, member, last) in threads {
            let (Some(profile), Some(member)) = (cards.get(&profile).cloned(), cards.get(&member).cloned()) else { continue };
            out.push(OperatorThread { id, profile, member, last: lasts.remove(&last), waiting: waiting.get(&id).copied().unwrap_or(0) });
        }
        Ok(out)
    }

    /// An operator's view of one fictional conversation: (profile, member, newest messages as the profile sees them).
    pub async fn operator_thread(&self, operator: &Member, site_id: i64, conversation: i64, now: i64) -> Result<(OperatorThread, Vec<ChatMessage>), AppError> {
        require_operator(operator)?;
        let thread = self.fictional_threads(site_id, Some(conversation), now).await?.pop().ok_or(ErrorCode::NotFound)?;
        let rows = sqlx::query(&format!("SELECT {MESSAGE_COLUMNS} FROM messages m WHERE m.conversation_id = $1 ORDER BY m.id DESC LIMIT 100"))
            .bind(conversation)
            .fetch_all(self.pool())
            .await?;
        let mut messages = rows.iter().map(|r| MessageRow::from_row(r).map(|m| m.view(thread.profile.id))).collect::<Result<Vec<_>, _>>()?;
        messages.reverse();
        Ok((thread, messages))
    }
}

fn require_operator(member: &Member) -> Result<(), ApiError> {
    if member.operator {
        Ok(())
    } else {
        Err(ApiError::new(ErrorCode::Forbidden))
    }
}
