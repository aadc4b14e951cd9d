//! Complaints and reports: stored with a reference, mailed to the site's support address, and
//! handled by staff (`/staff/complaints`). Every staff change is written to the staff log
//! ([`crate::staff::record`]).

use std::sync::Arc;

use domain::complaint::{Category, Complaint};
use domain::rows::Flag;
use domain::Locale;

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::locales::Catalog;
use crate::mail::{Mail, Outbox};
use crate::staff::{record, require_staff};

/// Where a complaint stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Open,
    Handled,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Handled => "handled",
        }
    }
}

/// A complaint as staff see it.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredComplaint {
    pub id: i64,
    pub reference: String,
    pub created_at: i64,
    pub name: String,
    pub email: String,
    pub category: Category,
    pub concerning: String,
    pub body: String,
    pub reporter_id: Option<i64>,
    /// The reported member and their profile name, when reported from their page.
    pub member: Option<(i64, String)>,
    pub conversation_id: Option<i64>,
    pub status: Status,
    pub handled_by: Option<String>,
    pub handled_at: Option<i64>,
}

/// What a complaint points at, as the page sent it (checked before it is stored).
#[derive(Debug, Clone, Copy, Default)]
pub struct Subject {
    pub member_id: Option<i64>,
    pub conversation_id: Option<i64>,
}

/// [`Subject`] as checked, with names: (member id, profile name), (conversation id, the other
/// member's name).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SubjectNames {
    pub member: Option<(i64, String)>,
    /// Whether the reporter may see the member's name (the link is kept either way: staff need it).
    pub member_visible: bool,
    pub conversation: Option<(i64, String)>,
}

/// A reported member as the reporter may see them.
#[derive(sqlx::FromRow)]
struct ReportedRow {
    user_id: i64,
    name: String,
    #[sqlx(try_from = "Flag")]
    searchable: bool,
    status: String,
    blocked_me: i64,
}

/// A complaint with its site, for the mail to support.
#[derive(sqlx::FromRow)]
struct MailRow {
    reference: String,
    name: String,
    email: String,
    category: String,
    concerning: String,
    body: String,
    member_id: Option<i64>,
    conversation_id: Option<i64>,
    language: String,
    site_name: String,
    domain: String,
    domain_language: String,
    support_email: String,
    mail_name: String,
    member_name: Option<String>,
}

/// A complaint as staff list it, with the names of the reported member and of who handled it.
#[derive(sqlx::FromRow)]
struct ComplaintRow {
    id: i64,
    reference: String,
    created_at: i64,
    name: String,
    email: String,
    category: String,
    concerning: String,
    body: String,
    reporter_id: Option<i64>,
    member_id: Option<i64>,
    conversation_id: Option<i64>,
    status: String,
    handled_at: Option<i64>,
    member_name: Option<String>,
    handled_name: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Complaints {
    db: Db,
    outbox: Outbox,
    catalog: Arc<Catalog>,
}

impl Complaints {
    pub fn new(db: Db, outbox: Outbox, catalog: Arc<Catalog>) -> Complaints {
        Complaints { db, outbox, catalog }
    }

    /// The names behind a report link: the member if they are of this site, the other member
    /// of the conversation if it is the reporter's own.
    pub async fn describe(&self, site_id: i64, reporter: Option<&Member>, subject: Subject) -> Result<SubjectNames, AppError> {
        let (member, member_visible) = match subject.member_id {
            Some(id) => {
                let row = sqlx::query_as::<_, ReportedRow>(&format!(
                    "SELECT p.user_id, p.name, p.searchable, u.status, {} FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.user_id = $2 AND p.site_id = $3",
                    crate::visibility::BLOCK_DIRECTIONS
                ))
                .bind(reporter.map(|r| r.id).unwrap_or(0))
                .bind(id)
                .bind(site_id)
                .fetch_optional(self.db.pool())
                .await?;
                match row {
                    Some(row) => {
                        // Whom the reporter could look up themselves: findable, not deleted, not blocking them.
                        let visible = row.searchable && row.status != "deleted" && row.blocked_me == 0;
                        (Some((row.user_id, row.name)), visible)
                    }
                    None => (None, false),
                }
            }
            None => (None, false),
        };
        let conversation = match (subject.conversation_id, reporter) {
            (Some(id), Some(r)) => {
                sqlx::query_as::<_, (i64, String)>(
                    "SELECT c.id, p.name FROM conversations c JOIN profiles p ON p.user_id = CASE WHEN c.low_id = $3 THEN c.high_id ELSE c.low_id END \
                 WHERE c.id = $1 AND c.site_id = $2 AND (c.low_id = $3 OR c.high_id = $3)",
                )
                .bind(id)
                .bind(site_id)
                .bind(r.id)
                .fetch_optional(self.db.pool())
                .await?
            }
            _ => None,
        };
        Ok(SubjectNames { member, member_visible, conversation })
    }

    /// Stores a complaint and mails support; returns its reference. A reported member must be
    /// of this site, a reported conversation the reporter's own; otherwise the link is dropped
    /// (the complaint itself is kept). A failed mail is sent again by [`Complaints::send_due`].
    pub async fn file(
        &self,
        site_id: i64,
        complaint: &Complaint,
        reporter: Option<&Member>,
        subject: Subject,
        language: Locale,
        now: i64,
    ) -> Result<String, AppError> {
        let names = self.describe(site_id, reporter, subject).await?;
        let (member_id, conversation_id) = (names.member.map(|m| m.0), names.conversation.map(|c| c.0));
        let mut attempt = 0;
        let (id, reference) = loop {
            let mut bytes = [0u8; 8];
            getrandom::getrandom(&mut bytes).map_err(|e| AppError::Internal(format!("random: {e}")))?;
            let reference = domain::complaint::reference(bytes);
            let inserted = sqlx::query_as::<_, (i64,)>(
                "INSERT INTO complaints (site_id, reference, created_at, language, name, email, category, concerning, body, reporter_id, member_id, conversation_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (reference) DO NOTHING RETURNING id",
            )
            .bind(site_id)
            .bind(&reference)
            .bind(now)
            .bind(language.code())
            .bind(&complaint.name)
            .bind(&complaint.email)
            .bind(complaint.category.as_str())
            .bind(&complaint.concerning)
            .bind(&complaint.text)
            .bind(reporter.map(|m| m.id))
            .bind(member_id)
            .bind(conversation_id)
            .fetch_optional(self.db.pool())
            .await?;
            match inserted {
                Some((id,)) => break (id, reference),
                None if attempt < 5 => attempt += 1,
                None => return Err(AppError::Internal("no free complaint reference".into())),
            }
        };
        tracing::info!(target: "complaints", id, site_id, category = complaint.category.as_str(), "complaint filed");
        if let Err(error) = self.mail_support(id, now).await {
            tracing::error!(%error, id, "mailing a complaint to support failed; housekeeping sends it again");
        }
        Ok(reference)
    }

    /// Mails every complaint whose mail did not go out yet (housekeeping).
    pub async fn send_due(&self, now: i64) -> Result<usize, AppError> {
        let due: Vec<(i64,)> = sqlx::query_as("SELECT id FROM complaints WHERE mailed_at IS NULL AND created_at < $1 ORDER BY id LIMIT 200")
            .bind(now - 60)
            .fetch_all(self.db.pool())
            .await?;
        let mut sent = 0;
        for (id,) in due {
            match self.mail_support(id, now).await {
                Ok(()) => sent += 1,
                Err(error) => {
                    tracing::error!(%error, id, "mailing a complaint to support failed again");
                    break;
                }
            }
        }
        Ok(sent)
    }

    /// The mail to the site's support address, in the site's language, then `mailed_at`.
    async fn mail_support(&self, id: i64, now: i64) -> Result<(), AppError> {
        let row = sqlx::query_as::<_, MailRow>(
            "SELECT c.reference, c.name, c.email, c.category, c.concerning, c.body, c.member_id, c.conversation_id, c.language, \
             s.name AS site_name, s.domain, s.domain_language, s.support_email, s.mail_name, p.name AS member_name \
             FROM complaints c JOIN sites s ON s.id = c.site_id LEFT JOIN profiles p ON p.user_id = c.member_id WHERE c.id = $1",
        )
        .bind(id)
        .fetch_one(self.db.pool())
        .await?;
        let locale = domain::locale::negotiate(None, Some(&row.domain_language), None);
        let t = |key: &str| self.catalog.t(locale, key);
        let reference = row.reference;
        let category = Category::parse(&row.category).map(|c| t(&c.label_key())).unwrap_or_default();
        let member = row.member_id.map(|mid| format!("{} (#{mid}, https://{}/members/{mid})", row.member_name.unwrap_or_default(), row.domain));
        let conversation = row.conversation_id.map(|cid| format!("#{cid}"));
        let lines: Vec<(String, String)> = [
            (t("complaints.reference"), Some(reference.clone())),
            (t("complaints.name"), Some(row.name)),
            (t("complaints.email"), Some(row.email)),
            (t("complaints.category"), Some(category.clone())),
            (t("complaints.concerning"), Some(row.concerning).filter(|c| !c.is_empty())),
            (t("complaints.reported_member"), member),
            (t("complaints.reported_conversation"), conversation),
            (t("complaints.language"), Some(row.language)),
        ]
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect();
        let body = row.body;
        let intro = domain::i18n::interpolate(&t("mail.complaint.intro"), &[("site", &row.site_name)]);
        let text = format!("{intro}\n\n{}\n\n{body}\n", lines.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("\n"));
        let html = maud::html! {
            p { (intro) }
            table { @for (k, v) in &lines { tr { th align="left" { (k) } td { (v) } } } }
            p style="white-space:pre-wrap" { (body) }
        }
        .into_string();
        self.outbox
            .send(Mail {
                from_name: row.mail_name,
                from_address: row.support_email.clone(),
                to: row.support_email,
                subject: domain::i18n::interpolate(&t("mail.complaint.subject"), &[("reference", &reference), ("category", &category)]),
                text,
                html,
                unsubscribe: None,
            })
            .await?;
        sqlx::query("UPDATE complaints SET mailed_at = $1 WHERE id = $2").bind(now).bind(id).execute(self.db.pool()).await?;
        Ok(())
    }

    /// The site's complaints in one status, newest first (staff only).
    pub async fn list(&self, staff: &Member, site_id: i64, status: Status, limit: i64) -> Result<Vec<StoredComplaint>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Complaints)?;
        let rows = sqlx::query_as::<_, ComplaintRow>(
            "SELECT c.id, c.reference, c.created_at, c.name, c.email, c.category, c.concerning, c.body, c.reporter_id, c.member_id, c.conversation_id, \
             c.status, c.handled_at, p.name AS member_name, h.name AS handled_name \
             FROM complaints c LEFT JOIN profiles p ON p.user_id = c.member_id LEFT JOIN profiles h ON h.user_id = c.handled_by \
             WHERE c.site_id = $1 AND c.status = $2 ORDER BY c.created_at DESC, c.id DESC LIMIT $3",
        )
        .bind(site_id)
        .bind(status.as_str())
        .bind(limit)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| StoredComplaint {
                id: r.id,
                reference: r.reference,
                created_at: r.created_at,
                name: r.name,
                email: r.email,
                category: Category::parse(&r.category).unwrap_or(Category::Other),
                concerning: r.concerning,
                body: r.body,
                reporter_id: r.reporter_id,
                member: r.member_id.map(|id| (id, r.member_name.unwrap_or_default())),
                conversation_id: r.conversation_id,
                status: if r.status == "handled" { Status::Handled } else { Status::Open },
                handled_by: r.handled_name,
                handled_at: r.handled_at,
            })
            .collect())
    }

    /// Marks a complaint handled or open again; logged. Only a change is logged: pressing the
    /// same button twice changes nothing the second time.
    pub async fn set_status(&self, staff: &Member, site_id: i64, id: i64, status: Status, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Complaints)?;
        let mut tx = self.db.begin().await?;
        let (handled_by, handled_at) = match status {
            Status::Handled => (Some(staff.id), Some(now)),
            Status::Open => (None, None),
        };
        let changed: Option<(String,)> = sqlx::query_as(
            "UPDATE complaints SET status = $1, handled_by = $2, handled_at = $3 WHERE id = $4 AND site_id = $5 AND status <> $1 RETURNING reference",
        )
        .bind(status.as_str())
        .bind(handled_by)
        .bind(handled_at)
        .bind(id)
        .bind(site_id)
        .fetch_optional(&mut *tx)
        .await?;
        match changed {
            Some((reference,)) => {
                record(&mut tx, site_id, staff, &format!("complaint_{}", status.as_str()), &reference, "", now).await?;
                tx.commit().await?;
                Ok(())
            }
            None => {
                let exists: Option<(i64,)> =
                    sqlx::query_as("SELECT id FROM complaints WHERE id = $1 AND site_id = $2").bind(id).bind(site_id).fetch_optional(&mut *tx).await?;
                exists.map(|_| ()).ok_or_else(|| AppError::from(domain::ErrorCode::NotFound))
            }
        }
    }
}
