//! The account mails: one layout (`mail::templates::LinkMail`) with texts in the member's
//! language and a link to one of the app's pages.

use domain::site::SiteSettings;
use domain::Locale;

use super::Accounts;
use crate::error::AppError;
use crate::mail::templates::LinkMail;
use crate::mail::Mail;

/// What one link mail says: the texts' prefix (`{prefix}.subject`, `.body`, `.button`), the
/// footer's key, extra placeholders besides `{site}`, and whether it offers to unsubscribe.
pub(super) struct LinkMailSpec<'a> {
    pub prefix: &'a str,
    pub footer: &'a str,
    pub vars: &'a [(&'a str, &'a str)],
    /// The member's id when the mail carries the unsubscribe link and `List-Unsubscribe`.
    pub unsubscribe_for: Option<i64>,
    /// A lifecycle message: its unsubscribe link and header stop this kind only.
    pub lifecycle: Option<domain::lifecycle::LifecycleKind>,
}

/// A mail of the previews: (name, texts' prefix, footer, link, with the unsubscribe link, its
/// lifecycle kind).
type PreviewKind = (&'static str, &'static str, &'static str, &'static str, bool, Option<domain::lifecycle::LifecycleKind>);

impl Accounts {
    /// Sends a link mail to `to` in `locale`; `link` is a path of the app, made absolute here.
    /// Answers the mail's `Message-ID`.
    pub(super) async fn send_link_mail(
        &self,
        site: &SiteSettings,
        base_url: &str,
        locale: Locale,
        to: &str,
        spec: LinkMailSpec<'_>,
        link: &str,
    ) -> Result<String, AppError> {
        let token = match spec.unsubscribe_for {
            Some(user_id) => Some(self.unsubscribe_token(user_id).await?),
            None => None,
        };
        let mail = self.compose_link_mail(site, base_url, locale, to, &spec, link, token.as_deref());
        self.outbox.send_with_id(mail).await
    }

    /// The mail itself: texts in `locale` with the site's name and `spec`'s placeholders, the
    /// link made absolute, and with `unsubscribe_token` the unsubscribe link and header (for
    /// the spec's lifecycle kind alone, when it has one).
    pub(super) fn compose_link_mail(
        &self,
        site: &SiteSettings,
        base_url: &str,
        locale: Locale,
        to: &str,
        spec: &LinkMailSpec<'_>,
        link: &str,
        unsubscribe_token: Option<&str>,
    ) -> Mail {
        let mut vars = vec![("site", site.name.as_str())];
        vars.extend_from_slice(spec.vars);
        let t = |key: &str| domain::i18n::interpolate(&self.catalog.t(locale, key), &vars);
        let link = crate::links::absolute(base_url, link);
        let (unsubscribe_page, one_click) = match unsubscribe_token {
            Some(token) => {
                let kind = spec.lifecycle.map(|k| format!("&kind={}", k.as_str())).unwrap_or_default();
                (
                    Some(crate::links::absolute(base_url, &format!("{}{kind}", self.links.unsubscribe(token)))),
                    Some(crate::links::absolute(base_url, &format!("{}{kind}", crate::links::one_click_unsubscribe(token)))),
                )
            }
            None => (None, None),
        };
        let unsubscribe_label = match spec.lifecycle {
            Some(kind) => t(&format!("lifecycle.{}.unsubscribe", kind.as_str())),
            None => t("mail.unsubscribe"),
        };
        let (greeting, body, button, footer) = (t("mail.greeting"), t(&format!("{}.body", spec.prefix)), t(&format!("{}.button", spec.prefix)), t(spec.footer));
        let layout = LinkMail {
            lang: locale.code(),
            greeting: &greeting,
            body: &body,
            button: &button,
            link: &link,
            footer: &footer,
            unsubscribe: unsubscribe_page.as_deref().map(|url| (url, unsubscribe_label.as_str())),
        };
        Mail {
            from_name: site.mail_name.clone(),
            from_address: site.support_email.clone(),
            to: to.to_string(),
            subject: t(&format!("{}.subject", spec.prefix)),
            text: layout.text(),
            html: layout.html(),
            unsubscribe: one_click,
        }
    }

    /// Every link mail the site sends, in `locale`, filled with sample data, for staff to read
    /// before members do (`/staff/mails`). Nothing is sent, no token is made.
    pub fn mail_previews(&self, site: &SiteSettings, base_url: &str, locale: Locale) -> Vec<(&'static str, Mail)> {
        use domain::lifecycle::LifecycleKind::{ConfirmReminder, DiscountEnding, LikesDigest, LowBalance, UnreadDigest, WinBack};
        let sample_token = "0".repeat(64);
        let until = domain::date::from_unix(self.clock.now() + 30 * 86_400).to_string().chars().take(10).collect::<String>();
        let six_hours = domain::plural::plural(&self.catalog.texts(locale), locale, "duration.hours", 6, &[]);
        let vars: [(&str, &str); 9] = [
            ("name", "Anna"),
            ("other", "Sanne"),
            ("email", "anna@example.nl"),
            ("percent", "20"),
            ("code", "BLIJF-4F2A"),
            ("until", &until),
            ("duration", &six_hours),
            ("names", "Sanne, Eva, Noor"),
            ("credits", "8"),
        ];
        let kinds: [PreviewKind; 16] = [
            ("activation", "mail.activation", "mail.footer", "/activate?token=…", true, None),
            ("reset", "mail.reset", "mail.reset.footer", "/reset-password/do?token=…", true, None),
            ("change", "mail.change", "mail.reset.footer", "/mail-change/do?token=…", false, None),
            ("change_notice", "mail.change_notice", "mail.change_notice.footer", "/mail-change/undo?token=…", false, None),
            ("deleted", "mail.deleted", "mail.reset.footer", "/account-deleted?token=…", false, None),
            ("like", "mail.like", "mail.notification_footer", "/members/42", true, None),
            ("match", "mail.match", "mail.notification_footer", "/members/42", true, None),
            ("message", "mail.message", "mail.notification_footer", "/chats/7", true, None),
            ("confirm_reminder", "lifecycle.confirm_reminder", "lifecycle.footer", "/activate?token=…", true, Some(ConfirmReminder)),
            ("discount_ending", "lifecycle.discount_ending", "lifecycle.footer", "/…", true, Some(DiscountEnding)),
            ("win_back", "lifecycle.win_back", "lifecycle.footer", "/…", true, Some(WinBack)),
            ("win_back_month", "lifecycle.win_back_month", "lifecycle.footer", "/…", true, Some(WinBack)),
            ("win_back_offer", "lifecycle.win_back_offer", "lifecycle.footer", "/…", true, Some(WinBack)),
            ("unread_digest", "lifecycle.unread_digest", "lifecycle.footer", "/…", true, Some(UnreadDigest)),
            ("likes_digest", "lifecycle.likes_digest", "lifecycle.footer", "/…", true, Some(LikesDigest)),
            ("low_balance", "lifecycle.low_balance", "lifecycle.footer", "/…", true, Some(LowBalance)),
        ];
        kinds
            .into_iter()
            .map(|(name, prefix, footer, link, unsubscribe, lifecycle)| {
                let spec = LinkMailSpec { prefix, footer, vars: &vars, unsubscribe_for: None, lifecycle };
                let token = unsubscribe.then_some(sample_token.as_str());
                (name, self.compose_link_mail(site, base_url, locale, "anna@example.nl", &spec, link, token))
            })
            .collect()
    }
}
