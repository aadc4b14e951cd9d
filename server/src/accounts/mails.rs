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

impl Accounts {
    /// Sends a link mail to `to` in `locale`; `link` is a path of the app, made absolute here.
    pub(super) async fn send_link_mail(
        &self,
        site: &SiteSettings,
        base_url: &str,
        locale: Locale,
        to: &str,
        spec: LinkMailSpec<'_>,
        link: &str,
    ) -> Result<(), AppError> {
        let mut vars = vec![("site", site.name.as_str())];
        vars.extend_from_slice(spec.vars);
        let t = |key: &str| domain::i18n::interpolate(&self.catalog.t(locale, key), &vars);
        let link = crate::links::absolute(base_url, link);
        let (unsubscribe_page, one_click) = match spec.unsubscribe_for {
            Some(user_id) => {
                let token = self.unsubscribe_token(user_id).await?;
                let kind = spec.lifecycle.map(|k| format!("&kind={}", k.as_str())).unwrap_or_default();
                (
                    Some(crate::links::absolute(base_url, &format!("{}{kind}", self.links.unsubscribe(&token)))),
                    Some(crate::links::absolute(base_url, &format!("{}{kind}", crate::links::one_click_unsubscribe(&token)))),
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
        self.outbox
            .send(Mail {
                from_name: site.mail_name.clone(),
                from_address: site.support_email.clone(),
                to: to.to_string(),
                subject: t(&format!("{}.subject", spec.prefix)),
                text: layout.text(),
                html: layout.html(),
                unsubscribe: one_click,
            })
            .await
    }
}
