//! On `/staff/held`: per week and kind, how many messages had contact details masked, held for
//! review or refused (`server::chat::contact`). The held ones wait in the list above.

use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{fail, staff_call};

use crate::i18n::use_i18n;

/// One week's figures for one kind of contact detail.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContactWeekView {
    /// The week's Monday, `YYYY-MM-DD`.
    pub week: String,
    /// `phone`, `email`, `web`, `messenger`.
    pub kind: String,
    pub masked: i64,
    pub held: i64,
    pub refused: i64,
}

#[server(prefix = "/api/fn", endpoint = "staff_contact_weeks", input = leptos::server_fn::codec::GetUrl)]
pub async fn staff_contact_weeks() -> Result<Vec<ContactWeekView>, ApiError> {
    let (c, member) = staff_call(domain::staff::StaffArea::Held).await?;
    let weeks = c.state.chat.contact_weeks(&member, c.site.settings.id, c.now()).await.map_err(fail)?;
    Ok(weeks.into_iter().map(|w| ContactWeekView { week: w.week, kind: w.kind, masked: w.masked, held: w.held, refused: w.refused }).collect())
}

#[component]
pub fn ContactWeeks() -> impl IntoView {
    let i18n = use_i18n();
    let weeks = Resource::new_blocking(|| (), |_| staff_contact_weeks());
    view! {
        <section class="card" aria-labelledby="contact-weeks-title">
            <h2 id="contact-weeks-title">{i18n.t("staff.contact_weeks.title")}</h2>
            <Suspense fallback=|| ()>
                {move || weeks.get().map(|result| match result {
                    Ok(rows) if rows.is_empty() => view! { <p class="muted" data-testid="contact-weeks-empty">{use_i18n().t("staff.contact_weeks.none")}</p> }.into_any(),
                    Ok(rows) => view! {
                        <div class="table-scroll">
                            <table class="staff-log" data-testid="contact-weeks">
                                <thead><tr>
                                    <th scope="col">{use_i18n().t("staff.contact_weeks.week")}</th>
                                    <th scope="col">{use_i18n().t("staff.contact_weeks.kind")}</th>
                                    <th scope="col">{use_i18n().t("staff.contact_weeks.masked")}</th>
                                    <th scope="col">{use_i18n().t("staff.contact_weeks.held")}</th>
                                    <th scope="col">{use_i18n().t("staff.contact_weeks.refused")}</th>
                                </tr></thead>
                                <tbody>
                                    {rows.into_iter().map(|r| view! {
                                        <tr>
                                            <td>{r.week}</td>
                                            <td>{use_i18n().t(&format!("staff.contact.{}", r.kind))}</td>
                                            <td>{r.masked}</td>
                                            <td>{r.held}</td>
                                            <td>{r.refused}</td>
                                        </tr>
                                    }).collect_view()}
                                </tbody>
                            </table>
                        </div>
                    }.into_any(),
                    Err(_) => view! { <p class="notice notice--error" role="alert">{use_i18n().t("error.generic")}</p> }.into_any(),
                })}
            </Suspense>
        </section>
    }
}
