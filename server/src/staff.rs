//! What staff do outside complaints and photo review: find a member by email or id, block and
//! unblock them with a reason, grant and take back the staff and operator roles. Every change is
//! written to the staff log (`staff_actions`: who, what, on what, why, when) in the same
//! transaction; only staff of the member's own site get anywhere.

use domain::account::Role;
pub use domain::staff::{DiscountRecord, PackRecord};
use sqlx::Row;

use crate::accounts::Member;
use crate::db::{flag, Db};
use crate::error::AppError;

/// Longest block reason, in characters.
pub const REASON_MAX_CHARS: usize = domain::account::STAFF_REASON_MAX_CHARS;

/// One line of the staff log.
#[derive(Debug, Clone, PartialEq)]
pub struct StaffAction {
    pub staff_name: String,
    pub action: String,
    pub target: String,
    pub detail: String,
    pub created_at: i64,
}

/// A member as staff see them.
#[derive(Debug, Clone, PartialEq)]
pub struct MemberRecord {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub status: String,
    pub role: Role,
    pub operator: bool,
    pub signup_date: i64,
    pub credits: i64,
    pub paid_user: bool,
    pub country: Option<String>,
    pub tracking_network: Option<String>,
}

/// A staff change to a member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MemberChange {
    /// Blocked (with the reason): their sessions end and they leave the search.
    Block(String),
    /// Active again (with the reason).
    Unblock(String),
    Role(Role),
    Operator(bool),
}

/// Staff of this site only; anyone else is told the thing does not exist.
pub fn require_staff(staff: &Member, site_id: i64) -> Result<(), AppError> {
    if staff.is_staff() && staff.site_id == site_id {
        Ok(())
    } else {
        Err(AppError::from(domain::ErrorCode::NotFound))
    }
}

/// Writes one line of the staff log inside the transaction of the change it describes.
pub async fn record(tx: &mut sqlx::Transaction<'_, sqlx::Any>, site_id: i64, staff: &Member, action: &str, target: &str, detail: &str, now: i64) -> Result<(), AppError> {
    sqlx::query("INSERT INTO staff_actions (site_id, staff_id, staff_name, action, target, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)")
        .bind(site_id)
        .bind(staff.id)
        .bind(format!("{} (#{})", staff.name, staff.id))
        .bind(action)
        .bind(target)
        .bind(detail)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct Staff {
    db: Db,
}

impl Staff {
    pub fn new(db: Db) -> Staff {
        Staff { db }
    }

    /// The staff log of a site, newest first.
    pub async fn log(&self, staff: &Member, site_id: i64, limit: i64) -> Result<Vec<StaffAction>, AppError> {
        require_staff(staff, site_id)?;
        let rows: Vec<(String, String, String, String, i64)> =
            sqlx::query_as("SELECT staff_name, action, target, detail, created_at FROM staff_actions WHERE site_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2")
                .bind(site_id)
                .bind(limit)
                .fetch_all(self.db.pool())
                .await?;
        Ok(rows.into_iter().map(|(staff_name, action, target, detail, created_at)| StaffAction { staff_name, action, target, detail, created_at }).collect())
    }

    /// A member of the site by id (`123` or `#123`) or email address; deleted accounts are not found.
    pub async fn find(&self, staff: &Member, site_id: i64, query: &str) -> Result<Option<MemberRecord>, AppError> {
        require_staff(staff, site_id)?;
        let q = query.trim();
        let by_id = q.trim_start_matches('#').parse::<i64>().ok();
        let sql = "SELECT u.id, u.email, u.status, u.role, u.operator, u.signup_date, u.credits, u.paid_user, u.tracking_network, p.name, p.country \
                   FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.site_id = $1 AND u.status <> 'deleted' AND ";
        let row = match by_id {
            Some(id) => sqlx::query(&format!("{sql}u.id = $2")).bind(site_id).bind(id).fetch_optional(self.db.pool()).await?,
            None => sqlx::query(&format!("{sql}u.email = $2")).bind(site_id).bind(q.to_lowercase()).fetch_optional(self.db.pool()).await?,
        };
        let Some(r) = row else { return Ok(None) };
        Ok(Some(MemberRecord {
            id: r.try_get("id")?,
            email: r.try_get("email")?,
            name: r.try_get("name")?,
            status: r.try_get("status")?,
            role: Role::parse(&r.try_get::<String, _>("role")?).unwrap_or(Role::Member),
            operator: flag(&r, "operator")?,
            signup_date: r.try_get("signup_date")?,
            credits: r.try_get("credits")?,
            paid_user: flag(&r, "paid_user")?,
            country: r.try_get("country")?,
            tracking_network: r.try_get("tracking_network")?,
        }))
    }

    /// Applies a change to a member of the site and logs it. Staff cannot block themselves or
    /// take their own staff role (someone else has to).
    pub async fn change_member(&self, staff: &Member, site_id: i64, user_id: i64, change: MemberChange, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id)?;
        let reason_of = |r: &str| -> Result<String, AppError> {
            let r = r.trim();
            if r.is_empty() || r.chars().count() > REASON_MAX_CHARS {
                return Err(domain::ApiError::field(domain::account::Field::Form, domain::ErrorCode::ReasonRequired).with("max", REASON_MAX_CHARS).into());
            }
            Ok(r.to_string())
        };
        if user_id == staff.id && matches!(change, MemberChange::Block(_) | MemberChange::Role(Role::Member)) {
            return Err(AppError::from(domain::ErrorCode::Forbidden));
        }
        let mut tx = self.db.pool().begin().await?;
        let found: Option<(String,)> = sqlx::query_as("SELECT status FROM users WHERE id = $1 AND site_id = $2 AND status <> 'deleted'").bind(user_id).bind(site_id).fetch_optional(&mut *tx).await?;
        let Some((status,)) = found else { return Err(AppError::from(domain::ErrorCode::NotFound)) };
        let target = format!("member #{user_id}");
        let (action, detail) = match &change {
            MemberChange::Block(reason) => {
                let reason = reason_of(reason)?;
                if status == "blocked" {
                    return Ok(());
                }
                sqlx::query("UPDATE users SET status = 'blocked' WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
                sqlx::query("DELETE FROM sessions WHERE user_id = $1").bind(user_id).execute(&mut *tx).await?;
                ("member_block", reason)
            }
            MemberChange::Unblock(reason) => {
                let reason = reason_of(reason)?;
                if status != "blocked" {
                    return Ok(());
                }
                sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(user_id).execute(&mut *tx).await?;
                ("member_unblock", reason)
            }
            MemberChange::Role(role) => {
                let changed = sqlx::query("UPDATE users SET role = $1 WHERE id = $2 AND role <> $1").bind(role.as_str()).bind(user_id).execute(&mut *tx).await?;
                if changed.rows_affected() == 0 {
                    return Ok(());
                }
                ("member_role", role.as_str().to_string())
            }
            MemberChange::Operator(on) => {
                let changed = sqlx::query("UPDATE users SET operator = $1 WHERE id = $2 AND operator <> $1").bind(*on).bind(user_id).execute(&mut *tx).await?;
                if changed.rows_affected() == 0 {
                    return Ok(());
                }
                ("member_operator", if *on { "on" } else { "off" }.to_string())
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

/// A staff change to the site's settings (each part is its own form on `/staff/site`).
#[derive(Debug, Clone, PartialEq)]
pub enum SiteChange {
    Texts(domain::staff::SiteTexts),
    Credits(domain::staff::CreditSettings),
    Countries(domain::staff::CountrySettings),
    Theme(domain::site::Theme),
    Gifts(Vec<String>),
    Rules(domain::staff::SiteRules),
    MessageCosts(Vec<domain::site::MessageCost>),
}

/// A column value of `sites` as the settings forms write it.
#[derive(Debug, Clone, PartialEq)]
enum Value {
    Int(i64),
    Text(String),
    Flag(bool),
    MaybeText(Option<String>),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(n) => write!(f, "{n}"),
            Value::Text(t) => write!(f, "{:?}", t.chars().take(60).collect::<String>()),
            Value::Flag(b) => write!(f, "{}", if *b { "on" } else { "off" }),
            Value::MaybeText(t) => write!(f, "{}", t.as_deref().unwrap_or("-")),
        }
    }
}

impl SiteChange {
    /// The checked change as (action for the log, columns and their new values).
    /// `countries`: the countries the site serves now (minimum message costs are for those).
    fn columns(self, countries: &[String]) -> Result<(&'static str, Vec<(&'static str, Value)>), AppError> {
        use Value::*;
        Ok(match self {
            SiteChange::Texts(t) => {
                let t = t.validate()?;
                (
                    "site_texts",
                    vec![
                        ("name", Text(t.name)),
                        ("index_title", Text(t.index_title)),
                        ("description", Text(t.description)),
                        ("support_email", Text(t.support_email)),
                        ("support_phone", Text(t.support_phone)),
                        ("mail_name", Text(t.mail_name)),
                        ("fictional_singular", Text(t.fictional_singular)),
                        ("fictional_plural", Text(t.fictional_plural)),
                        ("fictional_warning", Flag(t.fictional_warning)),
                    ],
                )
            }
            SiteChange::Credits(c) => {
                let c = c.validate()?;
                (
                    "site_credits",
                    vec![
                        ("message_credits", Int(c.message_credits)),
                        ("photo_credits", Int(c.photo_credits)),
                        ("gift_credits", Int(c.gift_credits)),
                        ("signup_credits", Int(c.signup_credits)),
                        ("free_messages", Int(c.free_messages)),
                        ("message_length", Int(c.message_length)),
                        ("welcome_discount_percent", Int(c.welcome_discount_percent)),
                        ("welcome_discount_hours", Int(c.welcome_discount_hours)),
                        ("refund_days", Int(c.refund_days)),
                        ("direct_debit_monthly_limit", Int(c.direct_debit_monthly_limit * 100)),
                    ],
                )
            }
            SiteChange::Countries(c) => {
                let c = c.validate()?;
                (
                    "site_countries",
                    vec![
                        ("countries", Text(serde_json::to_string(&c.countries).map_err(|e| AppError::Internal(e.to_string()))?)),
                        ("geoip_country", Text(c.geoip_country)),
                        ("geoip_selected_country", MaybeText(c.geoip_selected_country)),
                        ("min_age", Int(c.min_age)),
                    ],
                )
            }
            SiteChange::Theme(t) => {
                let t = t.validate()?;
                ("site_theme", vec![("theme_primary", Text(t.primary)), ("theme_secondary", Text(t.secondary)), ("theme_accent", Text(t.accent))])
            }
            SiteChange::Gifts(codes) => {
                let gifts = domain::staff::validate_gifts(&codes)?;
                // Every gift chosen is stored as the empty list: new gifts are then offered too.
                let list: Vec<&str> = if gifts.len() == domain::chat::Gift::ALL.len() { vec![] } else { gifts.iter().map(|g| g.code()).collect() };
                ("site_gifts", vec![("gifts", Text(serde_json::to_string(&list).map_err(|e| AppError::Internal(e.to_string()))?))])
            }
            SiteChange::Rules(r) => {
                let r = r.validate()?;
                (
                    "site_rules",
                    vec![
                        ("niche", Int(r.niche)),
                        ("signups", Text(r.signups)),
                        ("logged_out_search", Flag(r.logged_out_search)),
                        ("logged_out_search_trafficsource", Flag(r.logged_out_search_trafficsource)),
                        ("enable_site_entry_popup", Flag(r.enable_site_entry_popup)),
                        ("domain_language", Text(r.domain_language)),
                        ("visible_profile_fields", Text(serde_json::to_string(&r.visible_profile_fields).map_err(|e| AppError::Internal(e.to_string()))?)),
                        ("visible_profile_notes", Flag(r.visible_profile_notes)),
                        ("auto_likes", Int(r.auto_likes)),
                        ("auto_like_gap_secs", Int(r.auto_like_gap_minutes * 60)),
                    ],
                )
            }
            SiteChange::MessageCosts(rows) => {
                let rows = domain::staff::validate_message_costs(&rows, countries)?;
                ("site_message_costs", vec![("minimum_message_costs", Text(serde_json::to_string(&rows).map_err(|e| AppError::Internal(e.to_string()))?))])
            }
        })
    }
}

/// Writes those of `columns` whose values differ from the row `id` of `table` and says what
/// changed ("column: old → new; …", empty when nothing did). The row is locked first (a write
/// of its `name`, which `sites` and `companies` both have), so two staff saving at once are
/// applied one after the other.
async fn write_changed(tx: &mut sqlx::Transaction<'_, sqlx::Any>, table: &str, id: i64, columns: &[(&'static str, Value)]) -> Result<String, AppError> {
    sqlx::query(&format!("UPDATE {table} SET name = name WHERE id = $1")).bind(id).execute(&mut **tx).await?;
    let names: Vec<&str> = columns.iter().map(|(c, _)| *c).collect();
    let row = sqlx::query(&format!("SELECT {} FROM {table} WHERE id = $1", names.join(", "))).bind(id).fetch_one(&mut **tx).await?;
    let mut changed = Vec::new();
    for (column, new) in columns {
        let old = match new {
            Value::Int(_) => Value::Int(row.try_get(*column)?),
            Value::Text(_) => Value::Text(row.try_get(*column)?),
            Value::Flag(_) => Value::Flag(flag(&row, column)?),
            Value::MaybeText(_) => Value::MaybeText(row.try_get::<Option<String>, _>(*column)?.filter(|c| !c.is_empty())),
        };
        if &old != new {
            changed.push((*column, old, new));
        }
    }
    if changed.is_empty() {
        return Ok(String::new());
    }
    let sets: Vec<String> = changed.iter().enumerate().map(|(i, (c, _, _))| format!("{c} = ${}", i + 1)).collect();
    let sql = format!("UPDATE {table} SET {} WHERE id = ${}", sets.join(", "), changed.len() + 1);
    let mut query = sqlx::query(&sql);
    for (_, _, new) in &changed {
        query = match new {
            Value::Int(n) => query.bind(*n),
            Value::Text(t) => query.bind(t.clone()),
            Value::Flag(b) => query.bind(*b),
            Value::MaybeText(t) => query.bind(t.clone()),
        };
    }
    query.bind(id).execute(&mut **tx).await?;
    Ok(changed.iter().map(|(c, old, new)| format!("{c}: {old} → {new}")).collect::<Vec<_>>().join("; "))
}

impl Staff {
    /// Changes part of the site's settings and logs what changed (old → new). Nothing changed:
    /// nothing written, nothing logged. Every node reloads its settings (here at once; others on
    /// PostgreSQL's announcement or their periodic refresh).
    pub async fn change_site(&self, staff: &Member, site_id: i64, change: SiteChange, now: i64) -> Result<bool, AppError> {
        require_staff(staff, site_id)?;
        // Minimum message costs are for the countries the site serves now.
        let countries: Vec<String> = match change {
            SiteChange::MessageCosts(_) => {
                let (countries,): (String,) = sqlx::query_as("SELECT countries FROM sites WHERE id = $1").bind(site_id).fetch_one(self.db.pool()).await?;
                serde_json::from_str(&countries).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let (action, columns) = change.columns(&countries)?;
        let mut tx = self.db.pool().begin().await?;
        let detail = write_changed(&mut tx, "sites", site_id, &columns).await?;
        if detail.is_empty() {
            return Ok(false);
        }
        record(&mut tx, site_id, staff, action, "site", &detail, now).await?;
        tx.commit().await?;
        tracing::info!(target: "security", staff = staff.id, site_id, action, "staff changed site settings");
        Ok(true)
    }

    /// Every credit bundle of the site, in display order, with how often each was sold.
    pub async fn packs(&self, staff: &Member, site_id: i64) -> Result<Vec<PackRecord>, AppError> {
        require_staff(staff, site_id)?;
        let rows = sqlx::query(
            "SELECT c.id, c.credits, c.price_minor, c.currency, c.highlighted, c.sort_order, c.active, \
             (SELECT COUNT(*) FROM payments p WHERE p.pack_id = c.id AND p.status = 'paid') AS sold \
             FROM credit_packs c WHERE c.site_id = $1 ORDER BY c.sort_order, c.id",
        )
        .bind(site_id)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PackRecord {
                    id: r.try_get("id")?,
                    credits: r.try_get("credits")?,
                    price_minor: r.try_get("price_minor")?,
                    currency: r.try_get("currency")?,
                    highlighted: flag(r, "highlighted")?,
                    sort_order: r.try_get("sort_order")?,
                    active: flag(r, "active")?,
                    sold: r.try_get("sold")?,
                })
            })
            .collect()
    }

    /// Adds a bundle (`id` none) or changes one of the site's; logged. Bundles are never
    /// deleted (payments refer to them): staff switch them off.
    pub async fn save_pack(&self, staff: &Member, site_id: i64, edit: domain::staff::PackEdit, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id)?;
        let p = edit.validate()?;
        let mut tx = self.db.pool().begin().await?;
        let describe = |p: &domain::staff::PackEdit| {
            format!(
                "{} credits, {} {}{}{}, order {}",
                p.credits,
                domain::site::format_money(p.price_minor, "", false).trim(),
                p.currency,
                if p.highlighted { ", highlighted" } else { "" },
                if p.active { "" } else { ", off" },
                p.sort_order
            )
        };
        let (id, action, detail) = match p.id {
            None => {
                let (id,): (i64,) = sqlx::query_as(
                    "INSERT INTO credit_packs (site_id, credits, price_minor, currency, highlighted, sort_order, active) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                )
                .bind(site_id)
                .bind(p.credits)
                .bind(p.price_minor)
                .bind(&p.currency)
                .bind(p.highlighted)
                .bind(p.sort_order)
                .bind(p.active)
                .fetch_one(&mut *tx)
                .await?;
                (id, "pack_add", describe(&p))
            }
            Some(id) => {
                let row = sqlx::query("SELECT credits, price_minor, currency, highlighted, sort_order, active FROM credit_packs WHERE id = $1 AND site_id = $2")
                    .bind(id)
                    .bind(site_id)
                    .fetch_optional(&mut *tx)
                    .await?
                    .ok_or(domain::ErrorCode::NotFound)?;
                let old = domain::staff::PackEdit {
                    id: Some(id),
                    credits: row.try_get("credits")?,
                    price_minor: row.try_get("price_minor")?,
                    currency: row.try_get("currency")?,
                    highlighted: flag(&row, "highlighted")?,
                    sort_order: row.try_get("sort_order")?,
                    active: flag(&row, "active")?,
                };
                if old == p {
                    return Ok(id);
                }
                sqlx::query("UPDATE credit_packs SET credits = $1, price_minor = $2, currency = $3, highlighted = $4, sort_order = $5, active = $6 WHERE id = $7 AND site_id = $8")
                    .bind(p.credits)
                    .bind(p.price_minor)
                    .bind(&p.currency)
                    .bind(p.highlighted)
                    .bind(p.sort_order)
                    .bind(p.active)
                    .bind(id)
                    .bind(site_id)
                    .execute(&mut *tx)
                    .await?;
                (id, "pack_change", format!("{} → {}", describe(&old), describe(&p)))
            }
        };
        record(&mut tx, site_id, staff, action, &format!("bundle #{id}"), &detail, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The site's discount codes, newest first, with how often each was redeemed.
    pub async fn discounts(&self, staff: &Member, site_id: i64) -> Result<Vec<DiscountRecord>, AppError> {
        require_staff(staff, site_id)?;
        let rows = sqlx::query(
            "SELECT d.id, d.code, d.percentage, d.minimum_order, d.country, d.active, d.expires_at, \
             (SELECT COUNT(*) FROM discount_redemptions r JOIN payments p ON p.id = r.payment_id WHERE r.code = d.code AND p.site_id = d.site_id) AS redeemed \
             FROM discount_codes d WHERE d.site_id = $1 ORDER BY d.id DESC",
        )
        .bind(site_id)
        .fetch_all(self.db.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(DiscountRecord {
                    id: r.try_get("id")?,
                    code: r.try_get("code")?,
                    percentage: r.try_get("percentage")?,
                    minimum_order: r.try_get("minimum_order")?,
                    country: r.try_get("country")?,
                    active: flag(r, "active")?,
                    expires_at: r.try_get("expires_at")?,
                    redeemed: r.try_get("redeemed")?,
                })
            })
            .collect()
    }

    /// A new discount code; `CodeTaken` when the site has it already (in any state).
    pub async fn add_discount(&self, staff: &Member, site_id: i64, edit: domain::staff::DiscountEdit, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id)?;
        let d = edit.validate(now)?;
        let mut tx = self.db.pool().begin().await?;
        let inserted: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO discount_codes (site_id, code, percentage, minimum_order, country, active, expires_at) VALUES ($1, $2, $3, $4, $5, TRUE, $6) \
             ON CONFLICT (site_id, code) DO NOTHING RETURNING id",
        )
        .bind(site_id)
        .bind(&d.code)
        .bind(d.percentage)
        .bind(d.minimum_order)
        .bind(&d.country)
        .bind(d.expires_at)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((id,)) = inserted else {
            return Err(domain::ApiError::new(domain::ErrorCode::CodeTaken).into());
        };
        let detail = format!(
            "{}%, minimum {}, {}{}",
            d.percentage,
            d.minimum_order,
            d.country.as_deref().unwrap_or("all countries"),
            d.expires_at.map(|at| {
                let day = domain::account::Ymd::from_unix(at);
                format!(", until {:04}-{:02}-{:02}", day.year, day.month, day.day)
            }).unwrap_or_default()
        );
        record(&mut tx, site_id, staff, "discount_add", &d.code, &detail, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// Switches a discount code on or off (codes are kept: redemptions refer to them); logged.
    pub async fn set_discount_active(&self, staff: &Member, site_id: i64, id: i64, active: bool, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id)?;
        let mut tx = self.db.pool().begin().await?;
        let found: Option<(String,)> = sqlx::query_as("SELECT code FROM discount_codes WHERE id = $1 AND site_id = $2").bind(id).bind(site_id).fetch_optional(&mut *tx).await?;
        let Some((code,)) = found else { return Err(domain::ErrorCode::NotFound.into()) };
        let changed = sqlx::query("UPDATE discount_codes SET active = $1 WHERE id = $2 AND active <> $1").bind(active).bind(id).execute(&mut *tx).await?;
        if changed.rows_affected() == 0 {
            return Ok(());
        }
        record(&mut tx, site_id, staff, if active { "discount_on" } else { "discount_off" }, &code, "", now).await?;
        tx.commit().await?;
        Ok(())
    }
}

pub use domain::staff::LOGO_MAX_BYTES;

impl Staff {
    /// The domains of the other sites that name the same company (a change shows there too).
    pub async fn company_shared_with(&self, staff: &Member, site_id: i64) -> Result<Vec<String>, AppError> {
        require_staff(staff, site_id)?;
        let rows: Vec<(String,)> = sqlx::query_as("SELECT o.domain FROM sites s JOIN sites o ON o.company_id = s.company_id AND o.id <> s.id WHERE s.id = $1 ORDER BY o.domain")
            .bind(site_id)
            .fetch_all(self.db.pool())
            .await?;
        Ok(rows.into_iter().map(|(d,)| d).collect())
    }

    /// Changes the details of the company behind the site (shown on every site that names it);
    /// the change is logged on each of those sites. Nothing changed: nothing written or logged.
    pub async fn change_company(&self, staff: &Member, site_id: i64, details: domain::staff::CompanyDetails, now: i64) -> Result<bool, AppError> {
        use Value::*;
        require_staff(staff, site_id)?;
        let d = details.validate()?;
        let json = |v: &Vec<String>| serde_json::to_string(v).map_err(|e| AppError::Internal(e.to_string()));
        let columns = vec![
            ("name", Text(d.name)),
            ("address", Text(d.address)),
            ("postal_code", Text(d.postal_code)),
            ("city", Text(d.city)),
            ("country", Text(d.country)),
            ("kvk", Text(d.kvk)),
            ("tradenames", Text(json(&d.tradenames)?)),
            ("vat_numbers", Text(json(&d.vat_numbers)?)),
            ("support_phone", Text(d.support_phone)),
            ("delete_discount", Int(d.delete_discount)),
        ];
        let mut tx = self.db.pool().begin().await?;
        let (company_id,): (i64,) = sqlx::query_as("SELECT company_id FROM sites WHERE id = $1").bind(site_id).fetch_one(&mut *tx).await?;
        let detail = write_changed(&mut tx, "companies", company_id, &columns).await?;
        if detail.is_empty() {
            return Ok(false);
        }
        let sites: Vec<(i64,)> = sqlx::query_as("SELECT id FROM sites WHERE company_id = $1").bind(company_id).fetch_all(&mut *tx).await?;
        for (id,) in sites {
            record(&mut tx, id, staff, "site_company", &format!("company #{company_id}"), &detail, now).await?;
        }
        tx.commit().await?;
        tracing::info!(target: "security", staff = staff.id, site_id, company_id, "staff changed company details");
        Ok(true)
    }

    /// Puts up a new logo (`Some`: an upload, decoded and written anew as PNG) or takes it down
    /// (`None`: back to the flame mark); logged.
    pub async fn set_logo(&self, staff: &Member, site_id: i64, upload: Option<Vec<u8>>, now: i64) -> Result<(), AppError> {
        require_staff(staff, site_id)?;
        let logo = match upload {
            None => None,
            Some(bytes) => Some(
                tokio::task::spawn_blocking(move || crate::members::photo_decode::decode_logo(&bytes, LOGO_MAX_BYTES))
                    .await
                    .map_err(|e| AppError::Internal(format!("logo decoding stopped: {e}")))?
                    .map_err(|e| AppError::from(e.code()))?,
            ),
        };
        let mut tx = self.db.pool().begin().await?;
        let detail = match &logo {
            Some(l) => {
                use sha2::Digest;
                let version: String = sha2::Sha256::digest(&l.png).iter().take(8).map(|b| format!("{b:02x}")).collect();
                sqlx::query("DELETE FROM site_logos WHERE site_id = $1").bind(site_id).execute(&mut *tx).await?;
                sqlx::query("INSERT INTO site_logos (site_id, png, width, height) VALUES ($1, $2, $3, $4)")
                    .bind(site_id)
                    .bind(l.png.clone())
                    .bind(i64::from(l.width))
                    .bind(i64::from(l.height))
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("UPDATE sites SET logo_version = $1 WHERE id = $2").bind(&version).bind(site_id).execute(&mut *tx).await?;
                format!("{} × {} px, {} bytes", l.width, l.height, l.png.len())
            }
            None => {
                let removed = sqlx::query("UPDATE sites SET logo_version = NULL WHERE id = $1 AND logo_version IS NOT NULL").bind(site_id).execute(&mut *tx).await?;
                sqlx::query("DELETE FROM site_logos WHERE site_id = $1").bind(site_id).execute(&mut *tx).await?;
                if removed.rows_affected() == 0 {
                    return Ok(());
                }
                String::new()
            }
        };
        record(&mut tx, site_id, staff, if logo.is_some() { "site_logo" } else { "site_logo_removed" }, "site", &detail, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Starts a new site on its own domain: settings, company and active credit bundles copied
    /// from this site (changed there afterwards), no members but a copy of the staff member's
    /// account (same address, password and second step, staff, out of the search), so they can log in on it.
    /// Logged on both sites. `DomainTaken` when a site already answers on the domain.
    pub async fn create_site(&self, staff: &Member, site_id: i64, new: domain::staff::NewSite, now: i64) -> Result<i64, AppError> {
        require_staff(staff, site_id)?;
        let new = new.validate()?;
        let copied: Vec<&str> = crate::sites::SITE_COLUMNS
            .split(',')
            .map(str::trim)
            .filter(|c| !["id", "domain", "is_default", "name", "domain_language", "push_key"].contains(c))
            .collect();
        let mut tx = self.db.pool().begin().await?;
        let taken: Option<(i64,)> = sqlx::query_as("SELECT id FROM sites WHERE domain = $1").bind(&new.domain).fetch_optional(&mut *tx).await?;
        if taken.is_some() {
            return Err(domain::ApiError::new(domain::ErrorCode::DomainTaken).with("setting", "domain").into());
        }
        let inserted: Result<(i64,), sqlx::Error> = sqlx::query_as(&format!(
            "INSERT INTO sites (domain, is_default, name, domain_language, {cols}, created_at) SELECT $1, FALSE, $2, $3, {cols}, $4 FROM sites WHERE id = $5 RETURNING id",
            cols = copied.join(", ")
        ))
        .bind(&new.domain)
        .bind(&new.name)
        .bind(&new.domain_language)
        .bind(now)
        .bind(site_id)
        .fetch_one(&mut *tx)
        .await;
        let (new_id,) = match inserted {
            Ok(row) => row,
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => return Err(domain::ApiError::new(domain::ErrorCode::DomainTaken).with("setting", "domain").into()),
            Err(e) => return Err(e.into()),
        };
        sqlx::query(
            "INSERT INTO credit_packs (site_id, credits, price_minor, currency, highlighted, sort_order, active) \
             SELECT $1, credits, price_minor, currency, highlighted, sort_order, active FROM credit_packs WHERE site_id = $2 AND active",
        )
        .bind(new_id)
        .bind(site_id)
        .execute(&mut *tx)
        .await?;
        let (user_id,): (i64,) = sqlx::query_as(
            "INSERT INTO users (site_id, email, password_hash, totp_secret, status, language, signup_date, role, invisible) \
             SELECT $1, email, password_hash, totp_secret, 'active', language, $2, 'staff', TRUE FROM users WHERE id = $3 RETURNING id",
        )
        .bind(new_id)
        .bind(now)
        .bind(staff.id)
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO profiles (user_id, name, date_of_birth, gender, sexuality, country, status, site_id, last_active) \
             SELECT $1, name, date_of_birth, gender, sexuality, country, status, $2, $3 FROM profiles WHERE user_id = $4",
        )
        .bind(user_id)
        .bind(new_id)
        .bind(now)
        .bind(staff.id)
        .execute(&mut *tx)
        .await?;
        crate::members::search::refresh_searchable(&mut *tx, user_id).await?;
        record(&mut tx, site_id, staff, "site_created", &new.domain, &format!("site #{new_id}, {}, {}", new.name, new.domain_language), now).await?;
        record(&mut tx, new_id, staff, "site_created", &new.domain, &format!("copied from site #{site_id}; staff account #{user_id}"), now).await?;
        tx.commit().await?;
        tracing::info!(target: "security", staff = staff.id, site_id, new_id, "staff created a site");
        Ok(new_id)
    }
}
