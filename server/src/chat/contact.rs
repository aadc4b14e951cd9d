//! Contact details in members' messages after the site's rules (`domain::contact`): each try
//! at sharing one the site does not allow is written down per kind (masked, held, refused), a
//! member's tries in the last day decide whether they are warned or held for review
//! (`domain::contact::apply_for`), and staff read the figures per week.

use domain::contact::{apply, apply_for, find, Checked, ContactKind, ContactRule, PERSISTENCE_WINDOW_SECS};
use domain::ErrorCode;

use super::Chat;
use crate::accounts::Member;
use crate::error::AppError;
use crate::sites::Site;
use crate::staff::require_staff;

/// How many weeks staff's figures go back.
pub const WEEKS_SHOWN: i64 = 8;

/// One week's figures for one kind.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ContactWeek {
    /// The week's Monday, as `YYYY-MM-DD`.
    pub week: String,
    pub kind: String,
    pub masked: i64,
    pub held: i64,
    pub refused: i64,
}

impl Chat {
    /// A member's text after the site's rules and their recent tries. A refusal is written down
    /// before it is returned; masked and held kinds are written down by [`Chat::contact_sent`]
    /// once the message is stored.
    pub(super) async fn check_contact(&self, site: &Site, me: &Member, attempt: &str, text: &str, now: i64) -> Result<Checked, AppError> {
        let rules = &site.contact_rules;
        let plain = apply(text, rules);
        let hit = match &plain {
            Ok(c) => !c.masked.is_empty() || !c.held.is_empty(),
            Err(e) => e.code == ErrorCode::ContactDetailsRefused,
        };
        if !hit {
            // Ordinary talk (or a detail the site allows): no query.
            return Ok(plain?);
        }
        let (tries,): (i64,) = sqlx::query_as("SELECT COUNT(DISTINCT attempt) FROM contact_events WHERE user_id = $1 AND created_at > $2 AND attempt <> $3")
            .bind(me.id)
            .bind(now - PERSISTENCE_WINDOW_SECS)
            .bind(attempt)
            .fetch_one(self.pool())
            .await?;
        match apply_for(text, rules, tries) {
            Ok(checked) => Ok(checked),
            Err(refusal) => {
                let mut kinds: Vec<ContactKind> = find(text).into_iter().map(|f| f.kind).filter(|k| rules.rule(*k) == ContactRule::Refuse).collect();
                kinds.sort();
                kinds.dedup();
                self.record_contact(site.id, me.id, attempt, &kinds, "refused", None, now).await?;
                tracing::info!(target: "security", member = me.id, tries, "contact details refused");
                Err(refusal.into())
            }
        }
    }

    /// Writes down what a stored message's contact details met (masked and held kinds).
    pub(super) async fn contact_sent(&self, site_id: i64, me: i64, attempt: &str, checked: &Checked, message: i64, now: i64) -> Result<(), AppError> {
        self.record_contact(site_id, me, attempt, &checked.masked, "masked", Some(message), now).await?;
        self.record_contact(site_id, me, attempt, &checked.held, "held", Some(message), now).await
    }

    #[allow(clippy::too_many_arguments)]
    async fn record_contact(
        &self,
        site_id: i64,
        me: i64,
        attempt: &str,
        kinds: &[ContactKind],
        action: &str,
        message: Option<i64>,
        now: i64,
    ) -> Result<(), AppError> {
        for kind in kinds {
            sqlx::query("INSERT INTO contact_events (site_id, user_id, attempt, kind, action, message_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
                .bind(site_id)
                .bind(me)
                .bind(attempt)
                .bind(kind.code())
                .bind(action)
                .bind(message)
                .bind(now)
                .execute(self.pool())
                .await?;
        }
        Ok(())
    }

    /// Staff: per week (Monday to Sunday, UTC) and kind, how many messages had contact details
    /// masked, held for review or refused; the last [`WEEKS_SHOWN`] weeks, newest first.
    pub async fn contact_weeks(&self, staff: &Member, site_id: i64, now: i64) -> Result<Vec<ContactWeek>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Held)?;
        // Unix day 0 was a Thursday: Monday-based weeks start 3 days later.
        let week_secs = 7 * 86_400;
        let monday = |t: i64| (t - 4 * 86_400).div_euclid(week_secs) * week_secs + 4 * 86_400;
        let from = monday(now) - (WEEKS_SHOWN - 1) * week_secs;
        // Integer division gives the week's number on both databases (times are positive).
        let rows: Vec<(i64, String, String, i64)> = sqlx::query_as(
            "SELECT (created_at - 345600) / 604800 AS week, kind, action, COUNT(DISTINCT attempt) FROM contact_events \
             WHERE site_id = $1 AND created_at >= $2 GROUP BY (created_at - 345600) / 604800, kind, action",
        )
        .bind(site_id)
        .bind(from)
        .fetch_all(self.pool())
        .await?;
        let mut weeks: std::collections::BTreeMap<(i64, String), ContactWeek> = std::collections::BTreeMap::new();
        for (week, kind, action, n) in rows {
            let start = week * week_secs + 4 * 86_400;
            let d = domain::date::from_unix(start);
            let entry = weeks.entry((start, kind.clone())).or_insert_with(|| ContactWeek {
                week: format!("{:04}-{:02}-{:02}", d.year, d.month, d.day),
                kind,
                masked: 0,
                held: 0,
                refused: 0,
            });
            match action.as_str() {
                "masked" => entry.masked += n,
                "held" => entry.held += n,
                _ => entry.refused += n,
            }
        }
        let mut out: Vec<ContactWeek> = weeks.into_values().collect();
        out.sort_by(|a, b| b.week.cmp(&a.week).then(a.kind.cmp(&b.kind)));
        Ok(out)
    }
}
