//! `/staff/mails` (admins): every mail the site sends, in any of its languages, filled with
//! sample data — subject, the HTML as a mail program shows it (in a sandboxed frame) and the
//! text part — so staff read what members get before they do. Nothing is sent.

use domain::{ApiError, Locale};
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::staff_call;

use crate::features::staff::{refuse_outside, StaffArea};
use crate::i18n::use_i18n;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MailPreview {
    pub name: String,
    pub subject: String,
    pub html: String,
    pub text: String,
}

#[server(prefix = "/api/fn", endpoint = "staff_mails", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_mails(lang: String) -> Result<Vec<MailPreview>, ApiError> {
    let (c, _) = staff_call(StaffArea::Site).await?;
    let locale = Locale::parse(&lang).or(c.site.settings.default_locale()).unwrap_or(Locale::DEFAULT);
    let previews = c.state.accounts.mail_previews(&c.site.settings, &c.base_url(), locale);
    Ok(previews.into_iter().map(|(name, mail)| MailPreview { name: name.to_string(), subject: mail.subject, html: mail.html, text: mail.text }).collect())
}

#[component]
pub fn MailsPage() -> impl IntoView {
    if let Some(refused) = refuse_outside(StaffArea::Site) {
        return refused;
    }
    let i18n = use_i18n();
    let current = use_query_map().get_untracked().get("lang").and_then(|l| Locale::parse(&l)).unwrap_or(i18n.locale);
    let previews = Resource::new_blocking(move || current.code().to_string(), staff_mails);
    view! {
        <Title text=i18n.t("staff.mails.title")/>
        <div class="container page">
            <h1>{i18n.t("staff.mails.title")}</h1>
            <p class="muted">{i18n.t("staff.mails.intro")}</p>
            <nav aria-label=i18n.t("staff.mails.languages")>
                <ul class="staff-links">
                    {Locale::ALL.into_iter().map(|locale| {
                        let here = locale == current;
                        view! {
                            <li><a class="btn btn--ghost btn--small" href=format!("/staff/mails?lang={}", locale.code()) aria-current=here.then_some("page")>{locale.code().to_uppercase()}</a></li>
                        }
                    }).collect_view()}
                </ul>
            </nav>
            <Suspense fallback=|| ()>
                {move || previews.get().map(|result| match result {
                    Ok(previews) => previews.into_iter().map(|p| view! { <Preview preview=p/> }).collect_view().into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </div>
    }
    .into_any()
}

#[component]
fn Preview(preview: MailPreview) -> impl IntoView {
    let i18n = use_i18n();
    let id = format!("mail-{}", preview.name);
    let labelled_by = id.clone();
    let label = i18n.t(&format!("staff.mails.kind.{}", preview.name));
    let frame_title = label.clone();
    view! {
        <section class="card mail-preview" aria-labelledby=labelled_by data-testid="mail-preview">
            <h2 id=id>{label}</h2>
            <p><strong>{i18n.t("staff.mails.subject")}": "</strong>{preview.subject}</p>
            // The mail's HTML in a frame of its own, with no script and no navigation.
            <iframe class="mail-preview__frame" title=frame_title srcdoc=preview.html sandbox=""></iframe>
            <details>
                <summary>{i18n.t("staff.mails.text")}</summary>
                <pre class="mail-preview__text">{preview.text}</pre>
            </details>
        </section>
    }
}
