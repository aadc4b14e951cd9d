//! Staff and members: find a member by number, address, name, IP range, payment or phone
//! (`domain::staff::search`), block and unblock them with a reason, grant and take back staff
//! roles (admins only).

use std::collections::BTreeMap;

use domain::rows::Flag;
use domain::staff::search::{ip_text_prefix, like_anywhere, lookups, Lookup, MatchKind, MAX_RESULTS};

use crate::accounts::Member;
use crate::error::AppError;

use super::{record, require_staff, Staff, StaffArea, StaffRole, StaffRoles};

/// A member as staff see them.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberRecord {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub status: String,
    pub roles: StaffRoles,
    pub signup_date: i64,
    pub credits: i64,
    pub paid_user: bool,
    pub country: Option<String>,
    pub tracking_network: Option<String>,
}

/// A member's row as staff find it.
#[derive(sqlx::FromRow)]
struct RecordRow {
    id: i64,
    email: String,
    status: String,
    staff_roles: i64,
    signup_date: i64,
    credits: i64,
    #[sqlx(try_from = "Flag")]
    paid_user: bool,
    tracking_network: Option<String>,
    name: String,
    country: Option<String>,
}

/// A staff change to a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberChange {
    /// Blocked (with the reason): their sessions end and they leave the search.
    Block(String),
    /// Active again (with the reason).
    Unblock(String),
    /// A staff role granted (`true`) or taken back; staff and operators leave the search.
    Role(StaffRole, bool),
    /// Deleted on the member's request (a GDPR erasure request, with its reason): as when the
    /// member deletes the account themselves, their sessions end, they leave the search, and
    /// the account's data is purged after the reactivation period (support and admins only).
    Delete(String),
}

/// A note staff left on a member.
#[derive(Debug, Clone, PartialEq, sqlx::FromRow)]
pub struct StaffNote {
    pub id: i64,
    pub staff_name: String,
    pub body: String,
    pub created_at: i64,
}

/// The notes a member file shows (the newest).
const NOTES_SHOWN: i64 = 50;

/// A member a search found, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    pub member: MemberRecord,
    pub matched: Vec<MatchKind>,
}

/// The columns of a member as staff see them (`RecordRow`).
const RECORD_COLUMNS: &str = "u.id, u.email, u.status, u.staff_roles, u.signup_date, u.credits, u.paid_user, u.tracking_network, p.name, p.country";
/// Security events read for an IP range, newest first (the range is checked on each).
const IP_EVENTS_READ: i64 = 5_000;

impl RecordRow {
    fn record(self) -> MemberRecord {
        MemberRecord {
            id: self.id,
            email: self.email,
            name: self.name,
            status: self.status,
            roles: StaffRoles::from_bits(self.staff_roles),
            signup_date: self.signup_date,
            credits: self.credits,
            paid_user: self.paid_user,
            country: self.country,
            tracking_network: self.tracking_network,
        }
    }
}

impl Staff {
    /// The site's members a query finds, each with what matched, newest first (at most
    /// [`MAX_RESULTS`]; deleted accounts are not found). Every search is in the staff log with
    /// its text and how many it found.
    pub async fn search(&self, staff: &Member, site_id: i64, query: &str, now: i64) -> Result<Vec<Found>, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        let mut matched: BTreeMap<i64, Vec<MatchKind>> = BTreeMap::new();
        for lookup in lookups(query) {
            for id in self.ids_for(site_id, &lookup).await? {
                let kinds = matched.entry(id).or_default();
                if !kinds.contains(&lookup.kind()) {
                    kinds.push(lookup.kind());
                }
            }
        }
        let ids: Vec<String> = matched.keys().rev().take(MAX_RESULTS).map(i64::to_string).collect();
        let mut found = Vec::new();
        if !ids.is_empty() {
            let rows: Vec<RecordRow> = sqlx::query_as(&format!(
                "SELECT {RECORD_COLUMNS} FROM users u JOIN profiles p ON p.user_id = u.id \
                 WHERE u.site_id = $1 AND u.status <> $2 AND u.id IN ({}) ORDER BY u.id DESC",
                ids.join(", ")
            ))
            .bind(site_id)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_all(self.db.pool())
            .await?;
            for row in rows {
                let matched = matched.remove(&row.id).unwrap_or_default();
                found.push(Found { member: row.record(), matched });
            }
        }
        let text: String = query.trim().chars().take(100).collect();
        self.note(staff, site_id, "member_search", &text, &found.len().to_string(), now).await?;
        Ok(found)
    }

    /// Leaves a note on a member of the site (support, moderators, admins); logged.
    pub async fn add_note(&self, staff: &Member, site_id: i64, user_id: i64, body: &str, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        let body = domain::staff::validate_staff_note(body)?;
        let mut tx = self.db.begin().await?;
        let member: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE id = $1 AND site_id = $2 AND status <> $3")
            .bind(user_id)
            .bind(site_id)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_optional(&mut *tx)
            .await?;
        if member.is_none() {
            return Err(domain::ErrorCode::NotFound.into());
        }
        let (id,): (i64,) =
            sqlx::query_as("INSERT INTO staff_notes (site_id, user_id, staff_id, staff_name, body, created_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
                .bind(site_id)
                .bind(user_id)
                .bind(staff.id)
                .bind(&staff.name)
                .bind(&body)
                .bind(now)
                .fetch_one(&mut *tx)
                .await?;
        let summary: String = body.chars().take(100).collect();
        record(&mut tx, site_id, staff, "member_note", &format!("member #{user_id}"), &summary, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The notes on a member of the site, newest first.
    pub async fn notes(&self, staff: &Member, site_id: i64, user_id: i64) -> Result<Vec<StaffNote>, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        Ok(sqlx::query_as(&format!(
            "SELECT id, staff_name, body, created_at FROM staff_notes WHERE site_id = $1 AND user_id = $2 ORDER BY id DESC LIMIT {NOTES_SHOWN}"
        ))
        .bind(site_id)
        .bind(user_id)
        .fetch_all(self.db.pool())
        .await?)
    }

    /// The ids of the site's members one reading of a query finds (at most a few hundred).
    async fn ids_for(&self, site_id: i64, lookup: &Lookup) -> Result<Vec<i64>, AppError> {
        let pool = self.db.pool();
        let limit = MAX_RESULTS * 4;
        let users = |condition: &str| format!("SELECT u.id FROM users u WHERE u.site_id = $1 AND {condition} ORDER BY u.id DESC LIMIT {limit}");
        let ids: Vec<(i64,)> = match lookup {
            Lookup::Id(id) => sqlx::query_as(&users("u.id = $2")).bind(site_id).bind(id).fetch_all(pool).await?,
            Lookup::Email(email) => sqlx::query_as(&users("u.email = $2")).bind(site_id).bind(email).fetch_all(pool).await?,
            Lookup::EmailPart(part) => {
                sqlx::query_as(&users("LOWER(u.email) LIKE $2 ESCAPE '\\'")).bind(site_id).bind(like_anywhere(part)).fetch_all(pool).await?
            }
            Lookup::Name(part) => {
                let sql = format!(
                    "SELECT u.id FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND LOWER(p.name) LIKE $2 ESCAPE '\\' \
                     ORDER BY u.id DESC LIMIT {limit}"
                );
                sqlx::query_as(&sql).bind(site_id).bind(like_anywhere(part)).fetch_all(pool).await?
            }
            Lookup::Payment(id) => sqlx::query_as("SELECT user_id FROM payments WHERE site_id = $1 AND id = $2").bind(site_id).bind(id).fetch_all(pool).await?,
            Lookup::ProviderPayment(reference) => {
                sqlx::query_as("SELECT user_id FROM payments WHERE site_id = $1 AND provider_id = $2").bind(site_id).bind(reference).fetch_all(pool).await?
            }
            Lookup::Phone { full, national } => {
                let sql = format!(
                    "SELECT DISTINCT d.user_id FROM direct_debits d JOIN users u ON u.id = d.user_id \
                     WHERE u.site_id = $1 AND (d.phone = $2 OR d.phone LIKE $3) LIMIT {limit}"
                );
                sqlx::query_as(&sql).bind(site_id).bind(full.as_deref().unwrap_or("")).bind(format!("%{national}")).fetch_all(pool).await?
            }
            Lookup::Ip(net) => {
                // A first cut by the range's text, then the range itself on each address.
                let rows: Vec<(i64, String)> = sqlx::query_as(&format!(
                    "SELECT e.user_id, e.ip FROM security_events e JOIN users u ON u.id = e.user_id \
                     WHERE u.site_id = $1 AND e.ip LIKE $2 ORDER BY e.id DESC LIMIT {IP_EVENTS_READ}"
                ))
                .bind(site_id)
                .bind(format!("{}%", ip_text_prefix(net)))
                .fetch_all(pool)
                .await?;
                // A member seen on several addresses comes back once per address: `search`
                // keeps each member once.
                rows.into_iter().filter(|(_, ip)| ip.parse::<std::net::IpAddr>().is_ok_and(|ip| net.contains(&ip))).map(|(user, _)| (user,)).collect()
            }
        };
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// A member of the site by id (`123` or `#123`) or email address; deleted accounts are not
    /// found. Each member found is a view, written to the staff log.
    pub async fn find(&self, staff: &Member, site_id: i64, query: &str, now: i64) -> Result<Option<MemberRecord>, AppError> {
        require_staff(staff, site_id, StaffArea::Members)?;
        let q = query.trim();
        let by_id = q.trim_start_matches('#').parse::<i64>().ok();
        let deleted = domain::account::UserStatus::Deleted.as_str();
        let sql = format!("SELECT {RECORD_COLUMNS} FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.status <> $3 AND ");
        let row = match by_id {
            Some(id) => sqlx::query_as::<_, RecordRow>(&format!("{sql}u.id = $2")).bind(site_id).bind(id).bind(deleted).fetch_optional(self.db.pool()).await?,
            None => {
                sqlx::query_as::<_, RecordRow>(&format!("{sql}u.email = $2"))
                    .bind(site_id)
                    .bind(q.to_lowercase())
                    .bind(deleted)
                    .fetch_optional(self.db.pool())
                    .await?
            }
        };
        if let Some(r) = &row {
            self.viewed(staff, site_id, r.id, now).await?;
        }
        Ok(row.map(RecordRow::record))
    }

    /// Staff looked at a member's record: that is in the staff log too.
    pub async fn viewed(&self, staff: &Member, site_id: i64, user_id: i64, now: i64) -> Result<(), AppError> {
        self.note(staff, site_id, "member_view", &format!("member #{user_id}"), "", now).await
    }

    /// Applies a change to a member of the site and logs it. Support, moderators and admins
    /// block and unblock; admins grant roles. Staff cannot block themselves or take their own admin role
    /// (someone else has to).
    pub async fn change_member(&self, staff: &Member, site_id: i64, user_id: i64, change: MemberChange, now: i64) -> Result<(), AppError> {
        // Moderators block and unblock too (a spammer from the held messages).
        let area = match change {
            MemberChange::Role(..) => StaffArea::Roles,
            MemberChange::Delete(_) => StaffArea::Members,
            _ if staff.may(StaffArea::Held) => StaffArea::Held,
            _ => StaffArea::Members,
        };
        require_staff(staff, site_id, area)?;
        let reason_of = domain::staff::validate_staff_reason;
        if user_id == staff.id && matches!(change, MemberChange::Block(_) | MemberChange::Delete(_) | MemberChange::Role(StaffRole::Admin, false)) {
            return Err(AppError::from(domain::ErrorCode::Forbidden));
        }
        let mut tx = self.db.begin().await?;
        let status = status_on_site(&mut tx, user_id, site_id).await?;
        let target = format!("member #{user_id}");
        let (action, detail) = match &change {
            MemberChange::Block(reason) => {
                let reason = reason_of(reason)?;
                if status == "blocked" {
                    return Ok(());
                }
                crate::accounts::block_in(&mut tx, user_id).await?;
                ("member_block", reason)
            }
            MemberChange::Unblock(reason) => {
                let reason = reason_of(reason)?;
                if status != "blocked" {
                    return Ok(());
                }
                sqlx::query("UPDATE users SET status = $2 WHERE id = $1")
                    .bind(user_id)
                    .bind(domain::account::UserStatus::Active.as_str())
                    .execute(&mut *tx)
                    .await?;
                ("member_unblock", reason)
            }
            MemberChange::Delete(reason) => {
                let reason = reason_of(reason)?;
                sqlx::query("UPDATE users SET status = $2, deleted_at = $3, delete_reason = $4 WHERE id = $1")
                    .bind(user_id)
                    .bind(domain::account::UserStatus::Deleted.as_str())
                    .bind(now)
                    .bind(format!("staff: {reason}"))
                    .execute(&mut *tx)
                    .await?;
                crate::accounts::end_all(&mut tx, user_id).await?;
                ("member_delete", reason)
            }
            MemberChange::Role(role, on) => {
                // One statement each way, so two admins changing two roles at once both count.
                let changed = if *on {
                    sqlx::query("UPDATE users SET staff_roles = staff_roles | $1 WHERE id = $2 AND (staff_roles & $1) = 0").bind(role.bit()).bind(user_id)
                } else {
                    sqlx::query("UPDATE users SET staff_roles = staff_roles & $1 WHERE id = $2 AND (staff_roles & $3) <> 0")
                        .bind(StaffRoles::ALL.without(*role).bits())
                        .bind(user_id)
                        .bind(role.bit())
                }
                .execute(&mut *tx)
                .await?;
                if changed.rows_affected() == 0 {
                    return Ok(());
                }
                (if *on { "role_granted" } else { "role_taken" }, role.as_str().to_string())
            }
        };
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        record(&mut tx, site_id, staff, action, &target, &detail, now).await?;
        tx.commit().await?;
        crate::members::search_cache::invalidate();
        tracing::info!(target: "security", staff = staff.id, user_id, action, "staff changed a member");
        Ok(())
    }
}

impl Staff {
    /// Corrects a member's credits through the ledger (`adjustment`), with the reason in the
    /// staff log: support and admins. `key` is the form's own one-time key: the same
    /// form sent twice (a double click, a retried request) books once. A correction that would
    /// take the balance below zero is refused (`insufficient_credits`) and changes nothing.
    /// Returns the member's balance after it.
    #[allow(clippy::too_many_arguments)]
    pub async fn correct_credits(&self, staff: &Member, site_id: i64, user_id: i64, amount: &str, reason: &str, key: &str, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id, StaffArea::Credits)?;
        let (delta, reason) = domain::staff::validate_credit_correction(amount, reason)?;
        if !(16..=64).contains(&key.len()) || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
            return Err(domain::ErrorCode::BadRequest.into());
        }
        let mut tx = self.db.begin().await?;
        status_on_site(&mut tx, user_id, site_id).await?;
        let reference = format!("staff:{}:{key}", staff.id);
        let entry = crate::credits::Entry { user_id, delta, reason: crate::credits::Reason::Adjustment, reference: &reference };
        let booking = crate::credits::book(&mut tx, entry, now).await?;
        if let crate::credits::Booking::Booked { .. } = booking {
            record(&mut tx, site_id, staff, "credits_corrected", &format!("member #{user_id}"), &format!("{delta:+} · {reason}"), now).await?;
        }
        tx.commit().await?;
        tracing::info!(target: "security", staff = staff.id, user_id, delta, "staff corrected a member's credits");
        Ok(booking.balance())
    }
}

/// A member's status, when they are a member of the site and not deleted; `not_found` otherwise.
async fn status_on_site(tx: &mut sqlx::Transaction<'_, sqlx::Any>, user_id: i64, site_id: i64) -> Result<String, AppError> {
    let found: Option<(String,)> = sqlx::query_as("SELECT status FROM users WHERE id = $1 AND site_id = $2 AND status <> $3")
        .bind(user_id)
        .bind(site_id)
        .bind(domain::account::UserStatus::Deleted.as_str())
        .fetch_optional(&mut **tx)
        .await?;
    found.map(|(status,)| status).ok_or_else(|| AppError::from(domain::ErrorCode::NotFound))
}
