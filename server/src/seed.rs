//! Demo content for a new, empty database, so that a fresh `make run` shows a living site.

use crate::db::Db;
use crate::error::AppError;
use domain::staff::StaffRole;

/// Seeds the demo sites, their company and credit packs when the database has no site yet.
/// Returns whether anything was written.
pub async fn seed_if_empty(db: &Db) -> Result<bool, AppError> {
    let mut tx = db.begin().await?;
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM sites").fetch_one(&mut *tx).await?;
    if count > 0 {
        return Ok(false);
    }
    let now = now_unix();
    let (company_id,): (i64,) = sqlx::query_as(
        "INSERT INTO companies (name, address, postal_code, city, country, kvk, tradenames, vat_numbers, support_phone, delete_discount, added) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
    )
    .bind("Vonk Media B.V.")
    .bind("Keizersgracht 123")
    .bind("1015 CJ")
    .bind("Amsterdam")
    .bind("NL")
    .bind("81234567")
    .bind(r#"["Vonk","Vonk Dating"]"#)
    .bind(r#"["NL862345678B01"]"#)
    .bind("+31 20 - 123 45 67")
    .bind(50_i64)
    .bind(domain::constants::TERMS_VERSION_DATE)
    .fetch_one(&mut *tx)
    .await?;

    let sites = [
        DemoSite {
            domain: "localhost",
            default: true,
            language: "nl-NL",
            country: "NL",
            countries: &["NL", "BE"],
            currency: "EUR",
            theme: ("#8b0d1a", "#e0263a", "#ff9f1c"),
        },
        DemoSite {
            domain: "vonk.de",
            default: false,
            language: "de-DE",
            country: "DE",
            countries: &["DE", "AT", "CH"],
            currency: "EUR",
            theme: ("#6d1140", "#d6336c", "#ffb703"),
        },
    ];
    for site in sites {
        let (site_id,): (i64,) = sqlx::query_as(
            "INSERT INTO sites (domain, is_default, name, domain_language, niche, signups, logged_out_search, \
             logged_out_search_trafficsource, enable_site_entry_popup, geoip_country, minimum_message_costs, support_phone, \
             support_email, fictional_icon, fictional_warning, fictional_singular, fictional_plural, description, index_title, \
             countries, visible_profile_fields, visible_profile_notes, message_credits, signup_credits, photo_credits, \
             gift_credits, message_length, search_fields, refund_days, member_resell, company_id, mail_name, min_age, \
             theme_primary, theme_secondary, theme_accent, welcome_discount_percent, created_at) \
             VALUES ($1, $2, 'Vonk', $3, 1, 'all', TRUE, FALSE, TRUE, $4, $5, '+31 20 - 123 45 67', 'support@vonk.example', \
             'heart', TRUE, 'profiel van een medewerker', 'profielen van medewerkers', '', '', $6, \
             '[\"gender\",\"age\",\"city\",\"relationship_status\",\"body_type\",\"hair_colour\",\"eye_colour\",\"tattoos\",\"interests\"]', \
             TRUE, 10, 20, 15, 25, 1000, '[\"gender\",\"country\",\"region\",\"age\"]', 14, FALSE, $7, 'Vonk', 18, $8, $9, $10, 15, $11) RETURNING id",
        )
        .bind(site.domain)
        .bind(site.default)
        .bind(site.language)
        .bind(site.country)
        .bind(message_costs(site.countries, site.currency))
        .bind(serde_json::json!(site.countries).to_string())
        .bind(company_id)
        .bind(site.theme.0)
        .bind(site.theme.1)
        .bind(site.theme.2)
        .bind(now)
        .fetch_one(&mut *tx)
        .await?;
        for (order, (credits, price, highlighted)) in
            [(25_i64, 995_i64, false), (60, 1995, true), (150, 4495, false), (400, 9995, false)].into_iter().enumerate()
        {
            sqlx::query("INSERT INTO credit_packs (site_id, credits, price_minor, currency, highlighted, sort_order) VALUES ($1, $2, $3, $4, $5, $6)")
                .bind(site_id)
                .bind(credits)
                .bind(price)
                .bind(site.currency)
                .bind(highlighted)
                .bind(order as i64)
                .execute(&mut *tx)
                .await?;
        }
        // Swiss buyers pay in francs: their own bundles.
        if site.domain == "vonk.de" {
            for (order, (credits, price, highlighted)) in
                [(25_i64, 990_i64, false), (60, 1990, true), (150, 4490, false), (400, 9990, false)].into_iter().enumerate()
            {
                sqlx::query("INSERT INTO credit_packs (site_id, credits, price_minor, currency, highlighted, sort_order, country) VALUES ($1, $2, $3, 'CHF', $4, $5, 'CH')")
                    .bind(site_id)
                    .bind(credits)
                    .bind(price)
                    .bind(highlighted)
                    .bind(order as i64)
                    .execute(&mut *tx)
                    .await?;
            }
        }
        // A demo discount code: 40 % from the 60-credit bundle up.
        sqlx::query("INSERT INTO discount_codes (site_id, code, percentage, minimum_order) VALUES ($1, 'VONK40', 40, 1995)")
            .bind(site_id)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    tracing::info!("seeded a new database with demo content");
    Ok(true)
}

struct DemoSite {
    domain: &'static str,
    default: bool,
    language: &'static str,
    country: &'static str,
    countries: &'static [&'static str],
    currency: &'static str,
    theme: (&'static str, &'static str, &'static str),
}

pub fn now_unix() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// The least a message costs, the same in each of a demo site's countries.
fn message_costs(countries: &[&str], currency: &str) -> String {
    serde_json::json!(countries.iter().map(|c| serde_json::json!({"country": c, "costs": 10, "currency": currency})).collect::<Vec<_>>()).to_string()
}

/// One of the demo site's own accounts (see [`demo_accounts`]).
#[derive(Debug, Clone, Copy)]
pub struct DemoAccount {
    pub email: &'static str,
    pub name: &'static str,
    pub gender: &'static str,
    /// Its staff roles (none: a member).
    pub roles: &'static [StaffRole],
    /// What the account is for, as printed at first start.
    pub role: &'static str,
}

/// A member, an admin, a moderator, a support agent, a finance officer and an operator on the
/// demo site's default site, so that a newcomer after `make run` can see every part of the site
/// as each of them sees it.
pub const DEMO_ACCOUNTS: [DemoAccount; 6] = [
    DemoAccount { email: "lid@vonk.example", name: "Lotte", gender: "female", roles: &[], role: "member" },
    DemoAccount { email: "staf@vonk.example", name: "Sander", gender: "male", roles: &[StaffRole::Admin], role: "admin: /staff" },
    DemoAccount { email: "moderator@vonk.example", name: "Mirjam", gender: "female", roles: &[StaffRole::Moderator], role: "moderator: /staff/photos" },
    DemoAccount { email: "support@vonk.example", name: "Sven", gender: "male", roles: &[StaffRole::Support], role: "support: /staff/members" },
    DemoAccount { email: "financien@vonk.example", name: "Femke", gender: "female", roles: &[StaffRole::Finance], role: "finance: /staff/payments" },
    DemoAccount { email: "operator@vonk.example", name: "Olga", gender: "female", roles: &[StaffRole::Operator], role: "operator: /staff/chats" },
];

/// Creates [`DEMO_ACCOUNTS`] with one new random password when the default site has no
/// account of its own yet (a new demo database: the demo members are the site's fictional
/// profiles), and answers that password; `None` when the site has members already. Only the
/// `vonk` server calls this, at its start with `VONK_SEED=demo`; the password is shown then and
/// stored nowhere but as the accounts' hashes.
pub async fn demo_accounts(state: &crate::state::AppState) -> Result<Option<String>, AppError> {
    let Some(site) = state.sites.for_host(None) else { return Ok(None) };
    let (real,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM users WHERE site_id = $1 AND fictional = $2")
        .bind(site.settings.id)
        .bind(false)
        .fetch_one(state.db.pool())
        .await?;
    if real > 0 {
        return Ok(None);
    }
    let password = format!("vonk-{}", crate::accounts::tokens::random_hex::<6>());
    for account in DEMO_ACCOUNTS {
        let form = domain::account::SignupForm {
            email: account.email.into(),
            name: account.name.into(),
            password: password.clone(),
            date_of_birth: "1992-06-14".into(),
            signup_message: String::new(),
        };
        let request = crate::accounts::SignupRequest {
            site: &site.settings,
            form,
            tracking: Default::default(),
            locale: domain::Locale::Nl,
            base_url: state.base_url(&site),
            client: Default::default(),
            invitation: None,
        };
        // Confirmed from the start: no activation mail to an address nobody reads.
        let (id, _) = state.accounts.signup_confirmed(request).await?;
        let basics = domain::profile::BasicsForm {
            gender: account.gender.into(),
            sexuality: "hetero".into(),
            location: domain::profile::LocationForm { country: "NL".into(), region: "NL-NH".into(), city: "Haarlem".into() },
        };
        state.members.save_basics(&site.settings, id, &basics).await?;
        for role in account.roles {
            // Staff and operators leave the search with their role.
            state.accounts.set_staff_role(account.email, *role, true).await?;
        }
    }
    Ok(Some(password))
}
