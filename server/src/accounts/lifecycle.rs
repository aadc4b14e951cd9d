//! The lifecycle mails' sending half (what they say and where they lead) and saying no to one
//! kind of them. When they go out is `crate::lifecycle`'s.

use domain::lifecycle::LifecycleKind;
use domain::site::SiteSettings;
use domain::Locale;

use super::mails::LinkMailSpec;
use super::tokens::{self, Kind};
use super::{Accounts, Member, ACTIVATION_TTL_SECS};
use crate::error::AppError;

/// What one lifecycle message says and where it leads, whichever channel carries it: texts
/// under `{prefix}.subject`, `.body`, `.button` (mail) and `.push` (web push), filled with the
/// member's name, the site's and `vars`; `target` is the page its sign-in link opens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LifecycleNotice {
    pub kind: LifecycleKind,
    pub prefix: &'static str,
    pub vars: Vec<(&'static str, String)>,
    pub target: String,
}

impl LifecycleNotice {
    /// "We miss you" after `days` away: to the members, or with the leaving discount to the
    /// credits with the member's own code filled in.
    pub fn win_back(days: i64, offer: Option<&crate::payments::leaving::LeavingDiscount>) -> LifecycleNotice {
        let (prefix, target) = match offer {
            Some(offer) => ("lifecycle.win_back_offer", format!("/credits?code={}", domain::account::percent_encode(&offer.code))),
            None if days >= 30 => ("lifecycle.win_back_month", "/members".to_string()),
            None => ("lifecycle.win_back", "/members".to_string()),
        };
        let vars = match offer {
            Some(o) => vec![
                ("percent", o.percentage.to_string()),
                ("code", o.code.clone()),
                ("until", domain::date::from_unix(o.expires_at).to_string().chars().take(10).collect()),
            ],
            None => Vec::new(),
        };
        LifecycleNotice { kind: LifecycleKind::WinBack, prefix, vars, target }
    }
}

impl Accounts {
    /// "Confirm your address": a fresh activation link, with a link to stop these reminders.
    pub async fn send_confirm_reminder(&self, site: &SiteSettings, base_url: &str, member: &Member, now: i64) -> Result<String, AppError> {
        let token = tokens::new_token();
        let mut tx = self.db.begin().await?;
        tokens::insert(&mut tx, member.id, Kind::Activation, &token, None, now, ACTIVATION_TTL_SECS).await?;
        tx.commit().await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let kind = LifecycleKind::ConfirmReminder;
        let spec = LinkMailSpec {
            prefix: "lifecycle.confirm_reminder",
            footer: "lifecycle.footer",
            vars: &[("name", &member.name)],
            unsubscribe_for: Some(member.id),
            lifecycle: Some(kind),
        };
        self.send_link_mail(site, base_url, locale, &member.email, spec, &self.links.activation(&token)).await
    }

    /// A lifecycle message by mail, with a sign-in link to its page. Answers the mail's
    /// `Message-ID`.
    pub async fn send_lifecycle_mail(&self, site: &SiteSettings, base_url: &str, member: &Member, notice: &LifecycleNotice) -> Result<String, AppError> {
        let link = self.sign_in_link(site, member.id, &notice.target).await?;
        let locale = Locale::parse(&member.language).unwrap_or(Locale::DEFAULT);
        let mut vars: Vec<(&str, &str)> = vec![("name", &member.name)];
        vars.extend(notice.vars.iter().map(|(k, v)| (*k, v.as_str())));
        let spec =
            LinkMailSpec { prefix: notice.prefix, footer: "lifecycle.footer", vars: &vars, unsubscribe_for: Some(member.id), lifecycle: Some(notice.kind) };
        self.send_link_mail(site, base_url, locale, &member.email, spec, &link).await
    }

    /// One kind of lifecycle message stops for the member behind an unsubscribe token (the link
    /// in that kind's mail, or its one-click header). Unknown tokens change nothing; returns
    /// whether one matched.
    pub async fn unsubscribe_from(&self, token: &str, kind: LifecycleKind) -> Result<bool, AppError> {
        if !tokens::is_well_formed(token) {
            return Ok(false);
        }
        let row: Option<(i64,)> = sqlx::query_as("SELECT id FROM users WHERE unsubscribe_token = $1 AND status <> $2")
            .bind(token)
            .bind(domain::account::UserStatus::Deleted.as_str())
            .fetch_optional(self.db.pool())
            .await?;
        let Some((user_id,)) = row else { return Ok(false) };
        sqlx::query("INSERT INTO lifecycle_optouts (user_id, kind, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, kind) DO NOTHING")
            .bind(user_id)
            .bind(kind.as_str())
            .bind(self.clock.now())
            .execute(self.db.pool())
            .await?;
        Ok(true)
    }
}
