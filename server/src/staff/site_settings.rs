//! Staff and the site's settings (each part its own form on `/staff/site`) and the company
//! behind the site.

use domain::staff::{SettingsForm, Stored as Value};
use sqlx::Row;

use crate::accounts::Member;
use crate::db::flag;
use crate::error::AppError;

use super::{record, require_staff, Staff};

/// A staff change to the site's settings (each part is its own form on `/staff/site`).
#[derive(Debug, Clone, PartialEq)]
pub enum SiteChange {
    Texts(domain::staff::SiteTexts),
    Credits(domain::staff::CreditSettings),
    Countries(domain::staff::CountrySettings),
    Theme(domain::site::Theme),
    Gifts(Vec<String>),
    /// `kind → rule` codes for contact details in chat messages.
    ContactRules(Vec<(String, String)>),
    /// When alike first messages to many members are held for review.
    SpamRules(domain::spam::SpamRules),
    Rules(domain::staff::SiteRules),
    MessageCosts(Vec<domain::site::MessageCost>),
    /// Who may invite and how long an invitation works.
    Invitations(domain::staff::InviteSettings),
    /// Where browsers fetch the site's files (its CDN).
    Delivery(domain::staff::DeliverySettings),
    /// The messages the site sends on its own to bring members back.
    Lifecycle(domain::staff::LifecycleSettings),
    /// Which landing a signup counts for.
    Attribution(domain::staff::AttributionSettings),
    /// Where members must pass an age check first (the caller has checked that a provider can).
    Age(domain::staff::AgeSettings),
    /// From which fraud score payments wait for staff's review.
    Fraud(domain::staff::FraudSettings),
    /// Which chat photos wait for staff, shown meanwhile or not.
    ChatPhotos(domain::staff::ChatPhotoSettings),
}

/// A checked change: the action for the staff log, and the columns with their new values.
type Columns = (&'static str, Vec<(&'static str, Value)>);

impl SiteChange {
    /// The checked change as (action for the log, columns and their new values).
    /// `countries`: the countries the site serves now (minimum message costs are for those).
    fn columns(self, countries: &[String]) -> Result<Columns, AppError> {
        use Value::*;
        Ok(match self {
            SiteChange::Texts(t) => ("site_texts", t.validate()?.columns()),
            SiteChange::Credits(c) => ("site_credits", c.validate()?.columns()),
            SiteChange::Invitations(i) => ("site_invitations", i.validate()?.columns()),
            SiteChange::Delivery(d) => ("site_delivery", d.validate()?.columns()),
            SiteChange::Lifecycle(l) => ("site_lifecycle", l.validate()?.columns()),
            SiteChange::Attribution(a) => ("site_attribution", a.validate()?.columns()),
            SiteChange::Age(a) => ("site_age_checks", a.validate()?.columns()),
            SiteChange::Fraud(f) => ("site_payment_review", f.validate()?.columns()),
            SiteChange::ChatPhotos(c) => ("site_chat_photo_review", c.validate()?.columns()),
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
            SiteChange::ContactRules(pairs) => {
                let policy = domain::contact::ContactPolicy::from_form(&pairs)?;
                ("site_contact_rules", vec![("contact_rules", Text(serde_json::to_string(&policy).map_err(|e| AppError::Internal(e.to_string()))?))])
            }
            SiteChange::SpamRules(r) => {
                let r = r.validate()?;
                ("site_spam_rules", vec![("spam_rules", Text(serde_json::to_string(&r).map_err(|e| AppError::Internal(e.to_string()))?))])
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
                        ("search_fields", Text(serde_json::to_string(&r.search_fields).map_err(|e| AppError::Internal(e.to_string()))?)),
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
        require_staff(staff, site_id, crate::staff::StaffArea::Site)?;
        // Minimum message costs are for the countries the site serves now.
        let countries: Vec<String> = match change {
            SiteChange::MessageCosts(_) => {
                let (countries,): (String,) = sqlx::query_as("SELECT countries FROM sites WHERE id = $1").bind(site_id).fetch_one(self.db.pool()).await?;
                serde_json::from_str(&countries).unwrap_or_default()
            }
            _ => Vec::new(),
        };
        let (action, columns) = change.columns(&countries)?;
        let mut tx = self.db.begin().await?;
        let detail = write_changed(&mut tx, "sites", site_id, &columns).await?;
        if detail.is_empty() {
            return Ok(false);
        }
        record(&mut tx, site_id, staff, action, "site", &detail, now).await?;
        tx.commit().await?;
        tracing::info!(target: "security", staff = staff.id, site_id, action, "staff changed site settings");
        Ok(true)
    }
}

impl Staff {
    /// The domains of the other sites that name the same company (a change shows there too).
    pub async fn company_shared_with(&self, staff: &Member, site_id: i64) -> Result<Vec<String>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Site)?;
        let rows: Vec<(String,)> =
            sqlx::query_as("SELECT o.domain FROM sites s JOIN sites o ON o.company_id = s.company_id AND o.id <> s.id WHERE s.id = $1 ORDER BY o.domain")
                .bind(site_id)
                .fetch_all(self.db.pool())
                .await?;
        Ok(rows.into_iter().map(|(d,)| d).collect())
    }

    /// Changes the details of the company behind the site (shown on every site that names it);
    /// the change is logged on each of those sites. Nothing changed: nothing written or logged.
    pub async fn change_company(&self, staff: &Member, site_id: i64, details: domain::staff::CompanyDetails, now: i64) -> Result<bool, AppError> {
        use Value::*;
        require_staff(staff, site_id, crate::staff::StaffArea::Site)?;
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
        let mut tx = self.db.begin().await?;
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
}
