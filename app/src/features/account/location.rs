//! Country, region and city fields with the geolocation button (SPEC §2 settings, §3 store:
//! geolocation permission and geocode result). The region list follows the chosen country; the
//! button asks the browser for its position (cached up to an hour, SPEC §9) and our own
//! `geocode` server function turns it into one of the site's regions. No outside service is called.

use domain::profile::Region;
use leptos::prelude::*;

use crate::i18n::I18n;

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LocationTexts {
    country: String,
    country_choose: String,
    region: String,
    region_choose: String,
    city: String,
    use_mine: String,
    locating: String,
    found: String,
    denied: String,
    failed: String,
    outside: String,
}

impl LocationTexts {
    pub fn new(i18n: &I18n) -> LocationTexts {
        LocationTexts {
            country: i18n.t("profile.country"),
            country_choose: i18n.t("profile.country_choose"),
            region: i18n.t("profile.region"),
            region_choose: i18n.t("profile.region_choose"),
            city: i18n.t("profile.city"),
            use_mine: i18n.t("location.use_mine"),
            locating: i18n.t("location.locating"),
            found: i18n.t("location.found"),
            denied: i18n.t("location.denied"),
            failed: i18n.t("location.failed"),
            outside: i18n.t("location.outside"),
        }
    }
}

/// The countries of the site with their names in the page's language.
pub fn country_choices(i18n: &I18n, countries: &[String]) -> Vec<(String, String)> {
    countries.iter().map(|c| (c.clone(), i18n.t(&format!("country.{c}")))).collect()
}

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
enum GeoState {
    Idle,
    Locating,
    Found(String),
    Failed(&'static str),
}

#[cfg(feature = "hydrate")]
mod browser {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(inline_js = "
        export function vonk_locate(done) {
            if (!('geolocation' in navigator)) { done(JSON.stringify({ error: 'failed' })); return; }
            navigator.geolocation.getCurrentPosition(
                (pos) => done(JSON.stringify({ lat: pos.coords.latitude, lon: pos.coords.longitude })),
                (err) => done(JSON.stringify({ error: err && err.code === 1 ? 'denied' : 'failed' })),
                { maximumAge: 3600000, timeout: 15000 }
            );
        }
    ")]
    extern "C" {
        pub fn vonk_locate(done: &JsValue);
    }
}

/// The browser's position, or why there is none.
#[derive(serde::Deserialize)]
#[cfg_attr(not(feature = "hydrate"), allow(dead_code))]
struct Position {
    lat: Option<f64>,
    lon: Option<f64>,
    error: Option<String>,
}

/// The three fields; they post as `country`, `region` and `city` with the surrounding form.
#[island(lazy)]
pub fn LocationFields(
    texts: LocationTexts,
    countries: Vec<(String, String)>,
    regions: Vec<Region>,
    country: String,
    region: String,
    city: String,
) -> impl IntoView {
    // The island's module is fetched after the page has loaded: what the visitor chose before
    // it came wins over the server's values (hydration would otherwise put the region back).
    #[cfg(feature = "hydrate")]
    let (country, region) = {
        let chosen = |name: &str| crate::browser::field_value(&format!("[data-testid=location-fields] select[name={name}]"));
        let country = chosen("country").unwrap_or(country);
        // A region of another country was left behind when the country changed.
        let region =
            chosen("region").map(|code| if regions.iter().any(|r| r.code == code && r.country == country) { code } else { String::new() }).unwrap_or(region);
        (country, region)
    };
    let country = RwSignal::new(country);
    let region = RwSignal::new(region);
    let geo = RwSignal::new(GeoState::Idle);
    let regions = StoredValue::new(regions);
    // Effects run only in the browser: the fields say when the button works and the region list
    // follows the country.
    let ready = RwSignal::new(false);
    // Every country's regions, grouped: without JavaScript the list cannot follow the chosen
    // country, so all are offered (the server checks that region and country fit). Once the
    // island runs, the other countries' groups are hidden; the markup stays the same.
    let groups: Vec<(String, String, Vec<Region>)> = countries
        .iter()
        .map(|(code, name)| (code.clone(), name.clone(), regions.with_value(|all| all.iter().filter(|r| &r.country == code).cloned().collect())))
        .collect();
    let texts = StoredValue::new(texts);
    let t = move |f: fn(&LocationTexts) -> String| texts.with_value(f);
    let locate = move |_| {
        geo.set(GeoState::Locating);
        #[cfg(feature = "hydrate")]
        {
            use wasm_bindgen::prelude::*;
            let done = Closure::once_into_js(move |json: String| {
                let position: Option<Position> = serde_json::from_str(&json).ok();
                match position {
                    Some(Position { lat: Some(lat), lon: Some(lon), .. }) => leptos::task::spawn_local(async move {
                        // Our own server turns the position into one of the site's regions.
                        match crate::browser::with_retries(|| crate::features::account::server_fns::geocode(lat, lon)).await {
                            Ok(Some(r)) => {
                                country.set(r.country);
                                region.set(r.code);
                                geo.set(GeoState::Found(r.name));
                            }
                            Ok(None) => geo.set(GeoState::Failed("outside")),
                            Err(_) => geo.set(GeoState::Failed("failed")),
                        }
                    }),
                    Some(Position { error: Some(e), .. }) if e == "denied" => geo.set(GeoState::Failed("denied")),
                    _ => geo.set(GeoState::Failed("failed")),
                }
            });
            browser::vonk_locate(&done);
        }
    };
    let status = move || match geo.get() {
        GeoState::Idle => None,
        GeoState::Locating => Some(("notice", t(|t| t.locating.clone()))),
        GeoState::Found(name) => Some(("notice notice--ok", domain::i18n::interpolate(&t(|t| t.found.clone()), &[("region", &name)]))),
        GeoState::Failed(kind) => Some((
            "notice notice--error",
            t(match kind {
                "denied" => |t: &LocationTexts| t.denied.clone(),
                "outside" => |t: &LocationTexts| t.outside.clone(),
                _ => |t: &LocationTexts| t.failed.clone(),
            }),
        )),
    };
    Effect::new(move |_| ready.set(true));
    view! {
        <div class="location-fields" data-testid="location-fields" data-ready=move || ready.get().to_string()>
            <button type="button" class="btn btn--ghost btn--small location-fields__locate" on:click=locate disabled=move || geo.get() == GeoState::Locating data-testid="use-my-location">
                <svg aria-hidden="true" viewBox="0 0 24 24" width="18" height="18"><path fill="currentColor" d="M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm8.94 3A9 9 0 0 0 13 3.06V1h-2v2.06A9 9 0 0 0 3.06 11H1v2h2.06A9 9 0 0 0 11 20.94V23h2v-2.06A9 9 0 0 0 20.94 13H23v-2h-2.06zM12 19a7 7 0 1 1 0-14 7 7 0 0 1 0 14z"/></svg>
                {t(|t| t.use_mine.clone())}
            </button>
            {move || status().map(|(class, text)| view! { <p class=class role="status" data-testid="location-status">{text}</p> })}
            <div class="form__row">
                <label class="field">
                    <span class="field__label">{t(|t| t.country.clone())}</span>
                    <select name="country" required on:change=move |ev| { country.set(event_target_value(&ev)); region.set(String::new()); }>
                        <option value="" selected=move || country.get().is_empty()>{t(|t| t.country_choose.clone())}</option>
                        {countries.into_iter().map(|(code, name)| {
                            let c = code.clone();
                            view! { <option value=code selected=move || country.get() == c>{name}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="field">
                    <span class="field__label">{t(|t| t.region.clone())}</span>
                    <select name="region" required on:change=move |ev| region.set(event_target_value(&ev)) prop:value=move || region.get()>
                        <option value="">{t(|t| t.region_choose.clone())}</option>
                        {groups.into_iter().map(|(code, name, list)| {
                            let code = StoredValue::new(code);
                            let other = move || ready.get() && code.with_value(|c| country.get() != *c);
                            view! {
                                <optgroup label=name hidden=other disabled=other>
                                    {list.into_iter().map(|r| {
                                        let value = r.code.clone();
                                        view! { <option value=r.code selected=move || region.get() == value>{r.name}</option> }
                                    }).collect_view()}
                                </optgroup>
                            }
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <label class="field">
                <span class="field__label">{t(|t| t.city.clone())}</span>
                <input type="text" name="city" autocomplete="address-level2" required maxlength="60" value=city/>
            </label>
        </div>
    }
}
