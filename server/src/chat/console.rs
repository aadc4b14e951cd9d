//! The operator console: conversations with fictional profiles, read and answered by staff
//! with the operator role (free of charge, never held). The queue puts conversations waiting
//! for an answer first, the longest waiting first. Opening one claims it for
//! [`OPERATOR_CLAIM_SECS`] (renewed while the operator types and answers): another operator
//! sees who has it and cannot send in it. Notes on a member and a profile are shared.

use domain::chat::{validate_client_id, validate_operator_note, validate_text, OPERATOR_CLAIM_SECS};
use domain::rows::Flag;
use domain::widgets::ChatMessage;
use domain::{ApiError, ErrorCode};

use super::bus::Signal;
use super::send::{Outgoing, Payer};
use super::store::{MessageRow, MESSAGE_COLUMNS};
use super::{Chat, Content, PeerRow, Sent};
use crate::accounts::Member;
use crate::error::AppError;
use crate::members::search::{CardRow, CARD_COLUMNS};
use crate::sites::Site;

/// A message in a fictional conversation, and whether the profile sent it.
#[derive(sqlx::FromRow)]
struct LineRow {
    conversation_id: i64,
    operator_id: Option<i64>,
    created_at: i64,
    #[sqlx(try_from = "Flag")]
    fictional: bool,
}

/// A conversation's two members and which of them is the fictional profile.
#[derive(sqlx::FromRow)]
struct SidesRow {
    low_id: i64,
    high_id: i64,
    profile_id: Option<i64>,
}

/// A conversation in the operator queue, with its last message.
#[derive(sqlx::FromRow)]
struct QueueRow {
    id: i64,
    last_message_id: i64,
    #[sqlx(flatten)]
    sides: SidesRow,
}

impl SidesRow {
    /// The (profile, member), when one side is a fictional profile.
    fn profile_and_member(&self) -> Option<(i64, i64)> {
        let profile = self.profile_id?;
        Some((profile, if self.low_id == profile { self.high_id } else { self.low_id }))
    }
}

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
    /// When the oldest of those was sent (None: nothing waits).
    pub waiting_since: Option<i64>,
    /// The operator holding the conversation now, and their name (a lapsed claim is none).
    pub claimed_by: Option<(i64, String)>,
}

/// Who may answer a conversation now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// This operator, until then.
    Mine { until: i64 },
    /// Another operator (their name), until then.
    Taken { by: String, until: i64 },
}

/// Staff's figures on the operators (`/staff`, and as CSV).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OperatorFigures {
    /// Per operator and day, newest day first.
    pub days: Vec<domain::operators::OperatorDay>,
    /// Operators' names by id (0: an operator whose account is gone).
    pub names: std::collections::HashMap<i64, String>,
    /// Conversations whose last message came from the member.
    pub waiting_now: i64,
    /// When the longest-waiting of those was first left unanswered.
    pub oldest_waiting_since: Option<i64>,
}

/// What the operator sees of the member beside the conversation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemberFigures {
    /// Credits bought (purchases in the ledger).
    pub bought: i64,
    /// Credits spent (messages, photos, gifts).
    pub spent: i64,
    /// Payments completed.
    pub payments: i64,
}

impl Chat {
    /// Operators answer as a fictional profile in one of its conversations (free of charge).
    /// Refused with `claimed_by_other` while another operator holds the conversation; the
    /// send renews this operator's claim.
    pub async fn operator_send(&self, site: &Site, operator: &Member, conversation: i64, client_id: &str, text: &str, now: i64) -> Result<Sent, AppError> {
        require_operator(operator)?;
        validate_client_id(client_id)?;
        let text = validate_text(text, site.message_length)?;
        let (profile, member) = self.fictional_conversation(site.id, conversation).await?;
        if let Claim::Taken { by, .. } = self.take_claim(operator, site.id, conversation, now).await? {
            return Err(ApiError::new(ErrorCode::ClaimedByOther).with("name", by).into());
        }
        if let Some(sent) = self.already_sent(profile, client_id).await? {
            return Ok(sent);
        }
        let payer = Payer::Operator { operator: operator.id };
        self.store(
            site,
            Outgoing { sender: profile, to: super::To::Member(member), client_id, content: Content::Text(text), payer, hold: false, photo_review: None },
            now,
        )
        .await
    }

    /// The operator queue: conversations with a fictional profile; those waiting for an answer
    /// first, the longest waiting first, then the others, newest first.
    pub async fn operator_threads(&self, operator: &Member, site_id: i64, now: i64) -> Result<Vec<OperatorThread>, AppError> {
        require_operator(operator)?;
        let mut threads = self.fictional_threads(site_id, None, now).await?;
        threads.sort_by_key(|t| match t.waiting_since {
            Some(since) => (0, since, 0),
            None => (1, 0, -t.last.as_ref().map(|m| m.id).unwrap_or(0)),
        });
        Ok(threads)
    }

    /// Staff's figures: answers per operator per day since `since`, how long members waited,
    /// and what waits now.
    pub async fn operator_figures(&self, staff: &Member, site_id: i64, since: i64) -> Result<OperatorFigures, AppError> {
        crate::staff::require_staff(staff, site_id, crate::staff::StaffArea::OperatorFigures)?;
        let rows = sqlx::query_as::<_, LineRow>(
            "SELECT m.conversation_id, m.operator_id, m.created_at, s.fictional FROM messages m \
             JOIN conversations c ON c.id = m.conversation_id JOIN users s ON s.id = m.sender_id \
             WHERE c.site_id = $1 AND c.fictional = $2 AND m.created_at >= $3 ORDER BY m.conversation_id, m.id",
        )
        .bind(site_id)
        .bind(true)
        .bind(since)
        .fetch_all(self.pool())
        .await?;
        let lines: Vec<domain::operators::Line> = rows
            .iter()
            .map(|row| domain::operators::Line {
                conversation: row.conversation_id,
                operator: row.fictional.then(|| row.operator_id.unwrap_or(0)),
                at: row.created_at,
            })
            .collect();
        let days = domain::operators::operator_days(&lines);
        let mut names: std::collections::HashMap<i64, String> = std::collections::HashMap::new();
        let ids: Vec<String> =
            days.iter().map(|d| d.operator).filter(|id| *id > 0).collect::<std::collections::BTreeSet<_>>().into_iter().map(|id| id.to_string()).collect();
        if !ids.is_empty() {
            // Ids are numbers from our own query, never text from the request.
            for (id, name) in sqlx::query_as::<_, (i64, String)>(&format!("SELECT user_id, name FROM profiles WHERE user_id IN ({})", ids.join(", ")))
                .fetch_all(self.pool())
                .await?
            {
                names.insert(id, name);
            }
        }
        // Members' messages after their profile's last answer: the conversations they are in
        // wait, and the oldest of them has waited longest.
        let (waiting_now, oldest_waiting_since): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(DISTINCT m.conversation_id), MIN(m.created_at) FROM messages m \
             JOIN conversations c ON c.id = m.conversation_id JOIN users s ON s.id = m.sender_id \
             WHERE c.site_id = $1 AND c.fictional = $2 AND s.fictional = $3 \
             AND m.id > COALESCE((SELECT MAX(a.id) FROM messages a JOIN users f ON f.id = a.sender_id WHERE a.conversation_id = m.conversation_id AND f.fictional = $2), 0)",
        )
        .bind(site_id)
        .bind(true)
        .bind(false)
        .fetch_one(self.pool())
        .await?;
        Ok(OperatorFigures { days, names, waiting_now, oldest_waiting_since })
    }

    /// Claims a conversation for this operator (or renews their claim) unless another
    /// operator holds it. One statement decides, so of two operators opening it at once one
    /// gets it.
    pub async fn claim(&self, operator: &Member, site_id: i64, conversation: i64, now: i64) -> Result<Claim, AppError> {
        require_operator(operator)?;
        self.fictional_conversation(site_id, conversation).await?;
        self.take_claim(operator, site_id, conversation, now).await
    }

    /// [`Chat::claim`] for a conversation already checked to be the site's and fictional.
    /// A new holder (not a renewal) changes the queue the other operators see.
    async fn take_claim(&self, operator: &Member, site_id: i64, conversation: i64, now: i64) -> Result<Claim, AppError> {
        let until = now + OPERATOR_CLAIM_SECS;
        let held_by_me: Option<(i64,)> =
            sqlx::query_as("SELECT operator_id FROM operator_claims WHERE conversation_id = $1 AND operator_id = $2 AND expires_at > $3")
                .bind(conversation)
                .bind(operator.id)
                .bind(now)
                .fetch_optional(self.pool())
                .await?;
        let won: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO operator_claims (conversation_id, operator_id, expires_at) VALUES ($1, $2, $3) \
             ON CONFLICT (conversation_id) DO UPDATE SET operator_id = excluded.operator_id, expires_at = excluded.expires_at \
             WHERE operator_claims.operator_id = excluded.operator_id OR operator_claims.expires_at <= $4 \
             RETURNING operator_id",
        )
        .bind(conversation)
        .bind(operator.id)
        .bind(until)
        .bind(now)
        .fetch_optional(self.pool())
        .await?;
        if won.is_some() {
            // One conversation at a time: the operator's other claims end.
            sqlx::query("DELETE FROM operator_claims WHERE operator_id = $1 AND conversation_id <> $2")
                .bind(operator.id)
                .bind(conversation)
                .execute(self.pool())
                .await?;
            if held_by_me.is_none() {
                self.bus.publish(&[Signal::Queue { site: site_id }]).await?;
            }
            return Ok(Claim::Mine { until });
        }
        let (by, until): (String, i64) =
            sqlx::query_as("SELECT p.name, c.expires_at FROM operator_claims c JOIN profiles p ON p.user_id = c.operator_id WHERE c.conversation_id = $1")
                .bind(conversation)
                .fetch_one(self.pool())
                .await?;
        Ok(Claim::Taken { by, until })
    }

    /// Lets go of a conversation this operator holds (another may take it at once).
    pub async fn release(&self, operator: &Member, conversation: i64) -> Result<(), AppError> {
        require_operator(operator)?;
        let left = sqlx::query("DELETE FROM operator_claims WHERE conversation_id = $1 AND operator_id = $2")
            .bind(conversation)
            .bind(operator.id)
            .execute(self.pool())
            .await?;
        if left.rows_affected() > 0 {
            self.bus.publish(&[Signal::Queue { site: operator.site_id }]).await?;
        }
        Ok(())
    }

    /// The operators' shared note on the member and the profile of a conversation.
    pub async fn operator_note(&self, operator: &Member, site_id: i64, conversation: i64) -> Result<String, AppError> {
        require_operator(operator)?;
        let (profile, member) = self.fictional_conversation(site_id, conversation).await?;
        let note: Option<(String,)> = sqlx::query_as("SELECT body FROM operator_notes WHERE member_id = $1 AND profile_id = $2")
            .bind(member)
            .bind(profile)
            .fetch_optional(self.pool())
            .await?;
        Ok(note.map(|n| n.0).unwrap_or_default())
    }

    /// Saves the shared note (the last save wins; empty removes it).
    pub async fn save_operator_note(&self, operator: &Member, site_id: i64, conversation: i64, text: &str, now: i64) -> Result<(), AppError> {
        require_operator(operator)?;
        let body = validate_operator_note(text)?;
        let (profile, member) = self.fictional_conversation(site_id, conversation).await?;
        if body.is_empty() {
            sqlx::query("DELETE FROM operator_notes WHERE member_id = $1 AND profile_id = $2").bind(member).bind(profile).execute(self.pool()).await?;
            return Ok(());
        }
        sqlx::query(
            "INSERT INTO operator_notes (member_id, profile_id, body, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (member_id, profile_id) DO UPDATE SET body = excluded.body, updated_by = excluded.updated_by, updated_at = excluded.updated_at",
        )
        .bind(member)
        .bind(profile)
        .bind(&body)
        .bind(operator.id)
        .bind(now)
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// What the member of a conversation bought and spent.
    pub async fn member_figures(&self, operator: &Member, site_id: i64, conversation: i64) -> Result<MemberFigures, AppError> {
        require_operator(operator)?;
        let (_, member) = self.fictional_conversation(site_id, conversation).await?;
        let (bought, spent): (i64, i64) = sqlx::query_as(
            "SELECT CAST(COALESCE(SUM(CASE WHEN reason = $2 THEN delta ELSE 0 END), 0) AS BIGINT), \
             CAST(COALESCE(SUM(CASE WHEN reason = $3 THEN -delta ELSE 0 END), 0) AS BIGINT) FROM credit_ledger WHERE user_id = $1",
        )
        .bind(member)
        .bind(crate::credits::Reason::Purchase.as_str())
        .bind(crate::credits::Reason::Spend.as_str())
        .fetch_one(self.pool())
        .await?;
        let (payments,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM payments WHERE user_id = $1 AND status = $2")
            .bind(member)
            .bind(domain::checkout::PaymentStatus::Paid.code())
            .fetch_one(self.pool())
            .await?;
        Ok(MemberFigures { bought, spent, payments })
    }

    /// The (profile, member) of a conversation with a fictional profile on the site.
    async fn fictional_conversation(&self, site_id: i64, conversation: i64) -> Result<(i64, i64), AppError> {
        let row = sqlx::query_as::<_, SidesRow>(
            "SELECT c.low_id, c.high_id, (SELECT u.id FROM users u WHERE u.id IN (c.low_id, c.high_id) AND u.fictional = $2 LIMIT 1) AS profile_id \
             FROM conversations c WHERE c.id = $1 AND c.site_id = $3 AND c.fictional = $2",
        )
        .bind(conversation)
        .bind(true)
        .bind(site_id)
        .fetch_optional(self.pool())
        .await?
        .ok_or(ErrorCode::NotFound)?;
        Ok(row.profile_and_member().ok_or(ErrorCode::NotFound)?)
    }

    /// Conversations with a fictional profile on a site (or just the one asked for).
    async fn fictional_threads(&self, site_id: i64, only: Option<i64>, now: i64) -> Result<Vec<OperatorThread>, AppError> {
        let one = if only.is_some() { " AND c.id = $3" } else { "" };
        let sql = format!(
            "SELECT c.id, c.low_id, c.high_id, c.last_message_id, (SELECT u.id FROM users u WHERE u.id IN (c.low_id, c.high_id) AND u.fictional = $1 LIMIT 1) AS profile_id \
             FROM conversations c JOIN messages lm ON lm.id = c.last_message_id JOIN users ls ON ls.id = lm.sender_id \
             WHERE c.site_id = $2 AND c.fictional = $1{one} \
             ORDER BY CASE WHEN ls.fictional = $1 THEN 1 ELSE 0 END, CASE WHEN ls.fictional = $1 THEN -c.last_message_id ELSE c.last_message_id END LIMIT 200"
        );
        // Waiting ones (the member wrote last) first, the oldest first: the queue's 200 always
        // hold the longest waits.
        let mut query = sqlx::query_as::<_, QueueRow>(&sql).bind(true).bind(site_id);
        if let Some(id) = only {
            query = query.bind(id);
        }
        let rows = query.fetch_all(self.pool()).await?;
        // (conversation, profile, member, last message), then three queries for all of them at
        // once: the waiting counts, the cards and the last messages.
        let threads: Vec<(i64, i64, i64, i64)> =
            rows.iter().filter_map(|row| row.sides.profile_and_member().map(|(profile, member)| (row.id, profile, member, row.last_message_id))).collect();
        if threads.is_empty() {
            return Ok(Vec::new());
        }
        // Ids are numbers from our own query, never text from the request.
        let list = |ids: &mut dyn Iterator<Item = i64>| ids.map(|id| id.to_string()).collect::<Vec<_>>().join(", ");
        let conversations = list(&mut threads.iter().map(|t| t.0));
        // The member's messages after the profile's last answer, and when the oldest came.
        let waiting: std::collections::HashMap<i64, (i64, i64)> = sqlx::query_as::<_, (i64, i64, i64)>(&format!(
            "SELECT m.conversation_id, COUNT(*), MIN(m.created_at) FROM messages m JOIN users s ON s.id = m.sender_id \
             WHERE m.conversation_id IN ({conversations}) AND s.fictional = $1 \
             AND m.id > COALESCE((SELECT MAX(a.id) FROM messages a JOIN users f ON f.id = a.sender_id WHERE a.conversation_id = m.conversation_id AND f.fictional = $2), 0) \
             GROUP BY m.conversation_id"
        ))
        .bind(false)
        .bind(true)
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .map(|(id, count, since)| (id, (count, since)))
        .collect();
        let claims: std::collections::HashMap<i64, (i64, String)> = sqlx::query_as::<_, (i64, i64, String)>(&format!(
            "SELECT c.conversation_id, c.operator_id, p.name FROM operator_claims c JOIN profiles p ON p.user_id = c.operator_id WHERE c.conversation_id IN ({conversations}) AND c.expires_at > $1"
        ))
        .bind(now)
        .fetch_all(self.pool())
        .await?
        .into_iter()
        .map(|(id, op, name)| (id, (op, name)))
        .collect();
        let people = list(&mut threads.iter().flat_map(|t| [t.1, t.2]));
        let cards =
            sqlx::query_as::<_, CardRow>(&format!("SELECT {CARD_COLUMNS} FROM profiles p WHERE p.user_id IN ({people})")).fetch_all(self.pool()).await?;
        let cards: std::collections::HashMap<i64, PeerRow> = cards.into_iter().map(|r| self.peer_of(r, now)).map(|c| (c.id, c)).collect();
        let lasts: Vec<i64> = threads.iter().map(|t| t.3).collect();
        let mut lasts: std::collections::HashMap<i64, MessageRow> = self.rows_by_id(&lasts).await?.into_iter().map(|m| (m.id, m)).collect();
        let mut out = Vec::with_capacity(threads.len());
        for (id, profile, member, last) in threads {
            let (Some(profile), Some(member)) = (cards.get(&profile).cloned(), cards.get(&member).cloned()) else { continue };
            let (waiting, waiting_since) = waiting.get(&id).map_or((0, None), |(n, since)| (*n, Some(*since)));
            out.push(OperatorThread { id, profile, member, last: lasts.remove(&last), waiting, waiting_since, claimed_by: claims.get(&id).cloned() });
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

/// Operators only (with two-step login on); to anyone else the console does not exist.
fn require_operator(member: &Member) -> Result<(), AppError> {
    crate::staff::require_staff(member, member.site_id, crate::staff::StaffArea::Console)
}
