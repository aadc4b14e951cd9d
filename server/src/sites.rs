//! Sites: their settings and company rows, the credit packs they sell, and the in-memory cache
//! that answers "which site is this Host?" without a database read per request.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::Duration;

use domain::site::{CompanyInfo, CreditPack, Logo, MessageCost, Niche, SignupPolicy, SiteSettings, Theme};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::db::{flag, Db};
use crate::error::AppError;

/// A site with its company, as pages need them.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    pub settings: SiteSettings,
    pub company: CompanyInfo,
    pub is_default: bool,
    /// The uploaded logo's PNG (its size and version are in `settings.logo`).
    pub logo_png: Option<Arc<[u8]>>,
}

/// A site is mostly its settings: `&site` works where `&SiteSettings` is asked for.
impl std::ops::Deref for Site {
    type Target = SiteSettings;

    fn deref(&self) -> &SiteSettings {
        &self.settings
    }
}

impl Site {
    /// The base of links in mails: `public_url` (`VONK_PUBLIC_URL`) for the default site,
    /// `https://{domain}` for the others. Never taken from a request's Host header.
    pub fn base_url(&self, public_url: &str) -> String {
        if self.is_default {
            public_url.to_string()
        } else {
            format!("https://{}", self.settings.domain)
        }
    }
}

pub(crate) const SITE_COLUMNS: &str = "id, domain, is_default, name, domain_language, cdn_prefix, niche, signups, \
    logged_out_search, logged_out_search_trafficsource, enable_site_entry_popup, geoip_country, \
    geoip_selected_country, minimum_message_costs, support_phone, support_email, push_key, fictional_icon, \
    fictional_warning, fictional_singular, fictional_plural, description, index_title, countries, \
    visible_profile_fields, visible_profile_notes, message_credits, signup_credits, photo_credits, gift_credits, \
    message_length, free_messages, welcome_discount_percent, welcome_discount_hours, direct_debit_monthly_limit, direct_debit_on_collection, first_payment_needs_confirmed_address, search_fields, refund_days, member_resell, company_id, mail_name, min_age, \
    theme_primary, theme_secondary, theme_accent, auto_likes, auto_like_gap_secs, gifts, contact_rules, spam_rules";

const COMPANY_COLUMNS: &str = "id, name, address, postal_code, city, country, kvk, tradenames, vat_numbers, \
    support_phone, delete_discount, added";

fn json_list<T: serde::de::DeserializeOwned>(row: &AnyRow, column: &str) -> Result<Vec<T>, AppError> {
    let text: String = row.try_get(column)?;
    serde_json::from_str(&text).map_err(|e| AppError::Internal(format!("column {column} holds invalid JSON: {e}")))
}

fn site_from_row(row: &AnyRow) -> Result<(SiteSettings, bool), AppError> {
    let niche: i64 = row.try_get("niche")?;
    let signups: String = row.try_get("signups")?;
    let min_age: i64 = row.try_get("min_age")?;
    let theme = Theme { primary: row.try_get("theme_primary")?, secondary: row.try_get("theme_secondary")?, accent: row.try_get("theme_accent")? };
    let settings = SiteSettings {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        domain: row.try_get("domain")?,
        domain_language: row.try_get("domain_language")?,
        cdn_prefix: row.try_get("cdn_prefix")?,
        niche: u8::try_from(niche).ok().and_then(Niche::new).ok_or_else(|| AppError::Internal(format!("niche {niche} out of range")))?,
        signups: SignupPolicy::parse(&signups).ok_or_else(|| AppError::Internal(format!("unknown signups policy {signups}")))?,
        logged_out_search: flag(row, "logged_out_search")?,
        logged_out_search_trafficsource: flag(row, "logged_out_search_trafficsource")?,
        enable_site_entry_popup: flag(row, "enable_site_entry_popup")?,
        geoip_country: row.try_get("geoip_country")?,
        geoip_selected_country: row.try_get("geoip_selected_country")?,
        minimum_message_costs: json_list::<MessageCost>(row, "minimum_message_costs")?,
        support_phone: row.try_get("support_phone")?,
        support_email: row.try_get("support_email")?,
        push_key: row.try_get("push_key")?,
        fictional_icon: row.try_get("fictional_icon")?,
        fictional_warning: flag(row, "fictional_warning")?,
        fictional_singular: row.try_get("fictional_singular")?,
        fictional_plural: row.try_get("fictional_plural")?,
        description: row.try_get("description")?,
        index_title: row.try_get("index_title")?,
        countries: json_list(row, "countries")?,
        visible_profile_fields: json_list(row, "visible_profile_fields")?,
        visible_profile_notes: flag(row, "visible_profile_notes")?,
        message_credits: row.try_get("message_credits")?,
        signup_credits: row.try_get("signup_credits")?,
        photo_credits: row.try_get("photo_credits")?,
        gift_credits: row.try_get("gift_credits")?,
        message_length: row.try_get("message_length")?,
        free_messages: row.try_get("free_messages")?,
        welcome_discount_percent: row.try_get("welcome_discount_percent")?,
        welcome_discount_hours: row.try_get("welcome_discount_hours")?,
        direct_debit_monthly_limit: row.try_get("direct_debit_monthly_limit")?,
        direct_debit_on_collection: flag(row, "direct_debit_on_collection")?,
        first_payment_needs_confirmed_address: flag(row, "first_payment_needs_confirmed_address")?,
        search_fields: json_list(row, "search_fields")?,
        refund_days: row.try_get("refund_days")?,
        member_resell: flag(row, "member_resell")?,
        company_id: row.try_get("company_id")?,
        mail_name: row.try_get("mail_name")?,
        min_age: u32::try_from(min_age).unwrap_or(domain::constants::DEFAULT_MIN_AGE),
        // A bad colour in the database must never reach a style attribute.
        theme: if theme.is_valid() { theme } else { Theme::default() },
        auto_like: domain::notifications::AutoLikePolicy {
            count: u32::try_from(row.try_get::<i64, _>("auto_likes")?).unwrap_or(0),
            gap_secs: row.try_get("auto_like_gap_secs")?,
        },
        // Unknown codes (a gift since retired) are skipped.
        gifts: json_list::<String>(row, "gifts")?.iter().filter_map(|c| domain::chat::Gift::parse(c)).collect(),
        // Unreadable rules fall back to masking every kind.
        contact_rules: serde_json::from_str(&row.try_get::<String, _>("contact_rules")?).unwrap_or_default(),
        // Unreadable thresholds fall back to the defaults.
        spam_rules: serde_json::from_str(&row.try_get::<String, _>("spam_rules")?).unwrap_or_default(),
        logo: None,
    };
    Ok((settings, flag(row, "is_default")?))
}

fn company_from_row(row: &AnyRow) -> Result<CompanyInfo, AppError> {
    Ok(CompanyInfo {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        address: row.try_get("address")?,
        postal_code: row.try_get("postal_code")?,
        city: row.try_get("city")?,
        country: row.try_get("country")?,
        kvk: row.try_get("kvk")?,
        tradenames: json_list(row, "tradenames")?,
        vat_numbers: json_list(row, "vat_numbers")?,
        support_phone: row.try_get("support_phone")?,
        delete_discount: row.try_get("delete_discount")?,
        added: row.try_get("added")?,
    })
}

/// Reads every site with its company.
pub async fn load_all(db: &Db) -> Result<Vec<Site>, AppError> {
    let companies: HashMap<i64, CompanyInfo> = sqlx::query(&format!("SELECT {COMPANY_COLUMNS} FROM companies"))
        .fetch_all(db.pool())
        .await?
        .iter()
        .map(|row| company_from_row(row).map(|c| (c.id, c)))
        .collect::<Result<_, _>>()?;
    let mut logos: HashMap<i64, (Logo, Arc<[u8]>)> = HashMap::new();
    for row in sqlx::query(
        "SELECT l.site_id, l.png, l.width, l.height, s.logo_version FROM site_logos l JOIN sites s ON s.id = l.site_id WHERE s.logo_version IS NOT NULL",
    )
    .fetch_all(db.pool())
    .await?
    {
        let png: Vec<u8> = row.try_get("png")?;
        let size = |c: &str| -> Result<u32, AppError> { Ok(u32::try_from(row.try_get::<i64, _>(c)?).unwrap_or(0)) };
        let logo = Logo { version: row.try_get("logo_version")?, width: size("width")?, height: size("height")? };
        logos.insert(row.try_get("site_id")?, (logo, Arc::from(png)));
    }
    let rows = sqlx::query(&format!("SELECT {SITE_COLUMNS} FROM sites ORDER BY id")).fetch_all(db.pool()).await?;
    rows.iter()
        .map(|row| {
            let (mut settings, is_default) = site_from_row(row)?;
            let (logo, logo_png) = logos.remove(&settings.id).map_or((None, None), |(l, png)| (Some(l), Some(png)));
            settings.logo = logo;
            let company = companies.get(&settings.company_id).cloned().ok_or_else(|| AppError::Internal(format!("site {} has no company", settings.id)))?;
            Ok(Site { settings, company, is_default, logo_png })
        })
        .collect()
}

/// Active credit packs of a site, in display order.
pub async fn credit_packs(db: &Db, site_id: i64) -> Result<Vec<CreditPack>, AppError> {
    let rows = sqlx::query(
        "SELECT id, credits, price_minor, currency, highlighted FROM credit_packs \
         WHERE site_id = $1 AND active = TRUE ORDER BY sort_order, credits",
    )
    .bind(site_id)
    .fetch_all(db.pool())
    .await?;
    rows.iter().map(pack_row).collect()
}

/// A `credit_packs` row (id, credits, price_minor, currency, highlighted).
pub fn pack_row(row: &sqlx::any::AnyRow) -> Result<CreditPack, AppError> {
    Ok(CreditPack {
        id: row.try_get("id")?,
        credits: row.try_get("credits")?,
        price_minor: row.try_get("price_minor")?,
        currency: row.try_get("currency")?,
        highlighted: flag(row, "highlighted")?,
    })
}

/// Normalises a Host header: lower case, no port, no trailing dot, no leading "www.".
pub fn normalise_host(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    let without_port = if host.starts_with('[') {
        host.split(']').next().map(|h| format!("{h}]")).unwrap_or(host.clone())
    } else {
        host.rsplit_once(':').map(|(h, _)| h.to_string()).unwrap_or(host.clone())
    };
    let trimmed = without_port.trim_end_matches('.');
    trimmed.strip_prefix("www.").unwrap_or(trimmed).to_string()
}

/// An immutable view of all sites, swapped whole on refresh.
#[derive(Debug, Default)]
struct Snapshot {
    by_domain: HashMap<String, Arc<Site>>,
    default: Option<Arc<Site>>,
}

impl Snapshot {
    fn new(sites: Vec<Site>) -> Snapshot {
        let mut snap = Snapshot::default();
        for site in sites {
            let site = Arc::new(site);
            if site.is_default || snap.default.is_none() {
                snap.default = Some(site.clone());
            }
            snap.by_domain.insert(normalise_host(&site.settings.domain), site);
        }
        snap
    }
}

/// The channel on which PostgreSQL announces changed settings (the triggers of migration 20261128000014).
pub const SETTINGS_CHANNEL: &str = "vonk_settings";

static RELOADS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Site settings cached in memory, refreshed from the database in the background.
#[derive(Clone, Debug)]
pub struct SiteCache {
    db: Db,
    snapshot: Arc<RwLock<Arc<Snapshot>>>,
    /// True once announcements of changes are heard (see [`SiteCache::spawn_listen`]).
    listening: tokio::sync::watch::Sender<bool>,
}

impl SiteCache {
    pub async fn load(db: Db) -> Result<SiteCache, AppError> {
        let cache = SiteCache { db, snapshot: Arc::new(RwLock::new(Arc::new(Snapshot::default()))), listening: tokio::sync::watch::Sender::new(false) };
        cache.reload().await?;
        Ok(cache)
    }

    /// Re-reads all sites; the new set replaces the old one at once.
    pub async fn reload(&self) -> Result<(), AppError> {
        let snapshot = Arc::new(Snapshot::new(load_all(&self.db).await?));
        *self.snapshot.write().unwrap_or_else(|e| e.into_inner()) = snapshot;
        RELOADS.fetch_add(1, std::sync::atomic::Ordering::Release);
        Ok(())
    }

    /// Counts the reloads in this process: what was rendered from older settings is stale.
    pub fn generation() -> u64 {
        RELOADS.load(std::sync::atomic::Ordering::Acquire)
    }

    /// Keeps the cache fresh; errors are logged and the old snapshot stays in use.
    pub fn spawn_refresh(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let cache = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tick.tick().await;
                if let Err(error) = cache.reload().await {
                    tracing::warn!(%error, "site cache refresh failed; keeping the previous settings");
                }
            }
        })
    }

    /// On PostgreSQL: reloads as soon as the database announces a change of companies, sites or
    /// credit packs (`NOTIFY vonk_settings`, sent by triggers, whoever made the change), so every
    /// node follows within moments; the periodic refresh stays as a safety net. After a lost
    /// connection it reloads once, since announcements may have been missed meanwhile.
    pub fn spawn_listen(&self, database_url: &str) -> Option<tokio::task::JoinHandle<()>> {
        if self.db.backend() != crate::db::Backend::Postgres {
            return None;
        }
        let cache = self.clone();
        Some(tokio::spawn(crate::db::listen_forever(database_url.to_string(), SETTINGS_CHANNEL, "site settings", move |heard| {
            let cache = cache.clone();
            if matches!(heard, crate::db::Heard::MayHaveMissed) {
                cache.listening.send_replace(true);
            }
            async move {
                if let Err(error) = cache.reload().await {
                    tracing::warn!(%error, "site settings reload failed; keeping the previous settings");
                }
            }
        })))
    }

    /// Waits until [`SiteCache::spawn_listen`]'s `LISTEN` is in place (tests of several nodes).
    pub async fn listening(&self) {
        let mut ready = self.listening.subscribe();
        let _ = ready.wait_for(|listening| *listening).await;
    }

    /// The site with this id, if it is one of the cache's.
    pub fn by_id(&self, id: i64) -> Option<Arc<Site>> {
        let snap = self.snapshot.read().unwrap_or_else(|e| e.into_inner()).clone();
        snap.by_domain.values().find(|s| s.settings.id == id).cloned()
    }

    /// The site for a Host header; unknown hosts get the default site.
    pub fn for_host(&self, host: Option<&str>) -> Option<Arc<Site>> {
        let snap = self.snapshot.read().unwrap_or_else(|e| e.into_inner()).clone();
        host.map(normalise_host).and_then(|h| snap.by_domain.get(&h).cloned()).or_else(|| snap.default.clone())
    }

    pub fn db(&self) -> &Db {
        &self.db
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_normalisation() {
        assert_eq!(normalise_host("WWW.Vonk.NL:443"), "vonk.nl");
        assert_eq!(normalise_host("localhost:3000"), "localhost");
        assert_eq!(normalise_host("vonk.nl."), "vonk.nl");
        assert_eq!(normalise_host("[::1]:3000"), "[::1]");
    }
}
