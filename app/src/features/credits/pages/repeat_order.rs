//! `/credits/repeat-order`: the last order again.

use super::*;

#[component]
pub fn RepeatOrderPage() -> impl IntoView {
    let i18n = use_i18n();
    let member = crate::features::account::member_or_login("/credits/repeat-order")?;
    if !member.paid_user {
        #[cfg(feature = "ssr")]
        crate::call::redirect("/premium");
        return None;
    }
    let last = Resource::new_blocking(|| (), |_| get_last_order());
    let action = ServerAction::<RepeatOrder>::new();
    Some(view! {
        <Title text=i18n.t("title.repeat_order")/>
        <div class="container container--narrow page">
            <h1 class="page__title">{i18n.t("repeat.title")}</h1>
            <p class="page__lead">{i18n.t("repeat.intro")}</p>
            <ActionError action=action/>
            <Suspense fallback=|| ()>
                {move || last.get().map(|result| {
                    let i18n = use_i18n();
                    match result {
                        Ok(Some(p)) => {
                            let label = i18n.plural("repeat.button", p.credits, &[("method", &method_label(&i18n, p.method))]);
                            view! {
                                <section class="panel order" data-testid="repeat">
                                    <ActionForm action=action>
                                        <button type="submit" class="btn btn--primary btn--block" data-testid="repeat-order">{label}</button>
                                    </ActionForm>
                                </section>
                            }.into_any()
                        }
                        Ok(None) => view! { <p class="notice">{i18n.t("transactions.empty")}</p> }.into_any(),
                        Err(e) => view! { <p class="notice notice--error" role="alert">{i18n.error(&e)}</p> }.into_any(),
                    }
                })}
            </Suspense>
            <p><a href="/credits">{i18n.t("repeat.other")}</a></p>
        </div>
    })
}
