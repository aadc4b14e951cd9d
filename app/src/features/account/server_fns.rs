//! Server functions of the account pages: reads for the calling member, and every write of
//! signup, login, recovery, settings, profile and photos. Each is thin: find the caller, call
//! one `server` service method, send the browser on (or return the refusal, which
//! `crate::ui::forms::ActionError` shows next to the form).

use std::collections::BTreeMap;

use domain::profile::Region;
use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{call, fail, member_call, redirect, set_cookie};

/// What `/complete-signup`, `/profile` and `/settings` show and prefill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MyBasics {
    pub name: String,
    pub date_of_birth: String,
    pub gender: String,
    pub sexuality: String,
    pub country: String,
    pub region: String,
    pub region_name: String,
    pub city: String,
    /// The site's countries and their regions, for the location fields.
    pub countries: Vec<String>,
    pub regions: Vec<Region>,
    pub notify_messages: bool,
    pub notify_likes: bool,
    pub notify_news: bool,
    /// The rest of the profile, for the editor.
    pub details: domain::profile::DetailsForm,
    /// The profile text waits for review, or was turned down and why.
    #[serde(default)]
    pub text_status: Option<domain::moderation::TextStatus>,
    #[serde(default)]
    pub text_reason: Option<domain::moderation::Reason>,
}

#[server(prefix = "/api/fn", endpoint = "my_basics")]
pub async fn get_my_basics() -> Result<MyBasics, ApiError> {
    let (c, member) = member_call().await?;
    let (state, site) = (&c.state, &c.site);
    let basics = state.members.basics(member.id).await.map_err(fail)?;
    let prefs = state.accounts.notification_prefs(member.id).await.map_err(fail)?;
    let details = state.members.details(member.id).await.map_err(fail)?;
    let text = state.members.own_text(member.id).await.map_err(fail)?;
    let region_name = basics.region.as_deref().and_then(|r| state.members.regions().get(r)).map(|r| r.name.clone()).unwrap_or_default();
    Ok(MyBasics {
        name: basics.name,
        date_of_birth: basics.date_of_birth,
        gender: basics.gender.unwrap_or_default(),
        sexuality: basics.sexuality.unwrap_or_default(),
        country: basics.country.unwrap_or_default(),
        region: basics.region.unwrap_or_default(),
        region_name,
        city: basics.city.unwrap_or_default(),
        regions: state.members.regions_for(&site.settings),
        countries: site.settings.countries.clone(),
        notify_messages: prefs.messages,
        notify_likes: prefs.likes,
        notify_news: prefs.news,
        details,
        text_status: text.status,
        text_reason: text.reason,
    })
}

/// The member's own photos for `/profile`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MyPhotos {
    pub photos: Vec<domain::photo::OwnPhoto>,
    pub limit: usize,
    pub premium: bool,
    /// The upload size limit in whole megabytes, for the form's hint.
    pub max_mb: usize,
}

#[server(prefix = "/api/fn", endpoint = "my_photos")]
pub async fn get_my_photos() -> Result<MyPhotos, ApiError> {
    let (c, member) = member_call().await?;
    let own = c.state.photos.own(&member).await.map_err(fail)?;
    Ok(MyPhotos { photos: own.photos, limit: own.limit, premium: member.paid_user, max_mb: c.state.photos.max_bytes().div_ceil(1 << 20) })
}

/// The photos waiting for review on this site; moderators and admins only.
#[server(prefix = "/api/fn", endpoint = "photo_queue")]
pub async fn photo_queue() -> Result<Vec<domain::photo::QueuedPhoto>, ApiError> {
    let (c, member) = crate::call::staff_call(domain::staff::StaffArea::Photos).await?;
    c.state.photos.queue(&member, c.site.settings.id, 100).await.map_err(fail)
}

// ---------------------------------------------------------------------------------------------
// Signup, login, logout

/// Signup's form (SPEC §3): the account, then `/complete-signup`. Tracking data and the profile
/// a visitor signed up from travel along.
#[server(prefix = "/api/fn", endpoint = "signup")]
pub async fn signup(
    email: String,
    name: String,
    password: String,
    date_of_birth: String,
    #[server(default)] signup_message: String,
    network: Option<String>,
    r#ref: Option<String>,
    sub1: Option<String>,
    sub2: Option<String>,
    sub3: Option<String>,
    profile: Option<String>,
    then: Option<String>,
    invitation: Option<String>,
) -> Result<(), ApiError> {
    use domain::account::{SignupForm, Tracking};
    let c = call().await?;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Signup, c.client_ip(), c.now()).await.map_err(fail)?;
    // The form's tracking fields (the page's URL), else what the landing page left in the cookie.
    let fields = [("network", network), ("ref", r#ref), ("sub1", sub1), ("sub2", sub2), ("sub3", sub3)];
    let mut tracking = Tracking::from_pairs(fields.iter().filter_map(|(k, v)| v.as_deref().map(|v| (*k, v))));
    if tracking.is_empty() {
        tracking = server::http::tracking::from_cookie(&c.parts.headers);
    }
    let locale = server::http::visitor::locale(&c.parts.headers, &c.site);
    let request = server::accounts::SignupRequest {
        site: &c.site.settings,
        form: SignupForm { email, name, password, date_of_birth, signup_message },
        tracking,
        locale,
        base_url: c.base_url(),
        client: c.client(),
        invitation,
    };
    let (_, session) = c.state.accounts.signup(request).await.map_err(fail)?;
    set_cookie(session_cookie(&c, &session));
    // Signing up from one member's page (`/members/{id}/signup`) leads back to that member,
    // with what the visitor was about to do there.
    match profile.and_then(|v| v.parse::<i64>().ok()).filter(|id| *id > 0) {
        Some(id) => redirect(&crate::paths::complete_signup(id, then.as_deref().and_then(domain::lander::EntryAction::parse))),
        None => redirect("/complete-signup"),
    }
    Ok(())
}

/// The `Set-Cookie` of a new session.
#[cfg(feature = "ssr")]
pub(crate) fn session_cookie(c: &crate::call::Call, token: &str) -> String {
    use domain::constants::{AUTH_COOKIE, AUTH_COOKIE_DAYS};
    server::http::cookies::set(AUTH_COOKIE, token, AUTH_COOKIE_DAYS, c.state.config.secure_cookies)
}

#[cfg(feature = "ssr")]
pub(crate) fn clear_session_cookie(c: &crate::call::Call) -> String {
    server::http::cookies::clear(domain::constants::AUTH_COOKIE, c.state.config.secure_cookies)
}

/// Login with a new session (the old one ends), back to where the visitor came from.
#[server(prefix = "/api/fn", endpoint = "login")]
pub async fn login(email: String, password: String, return_to: Option<String>) -> Result<(), ApiError> {
    let c = call().await?;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await.map_err(fail)?;
    let previous = c.cookie(domain::constants::AUTH_COOKIE);
    let return_to = server::http::visitor::safe_return_path(return_to.as_deref());
    match c.state.accounts.login(c.site.settings.id, &email, &password, previous.as_deref(), &c.client()).await.map_err(fail)? {
        server::accounts::LoginOutcome::Session(session) => {
            set_cookie(session_cookie(&c, &session));
            redirect(&return_to);
        }
        // Two-step login: the browser keeps the step's token (HttpOnly, minutes) for the code.
        server::accounts::LoginOutcome::SecondStep(step) => {
            set_cookie(server::http::cookies::set_for_secs(
                crate::features::account::security::TWO_STEP_COOKIE,
                &step,
                server::accounts::SECOND_STEP_TTL_SECS,
                c.state.config.secure_cookies,
            ));
            redirect(&crate::ui::forms::with_param("/login/two-step", &format!("return_to={}", urlencoding_path(&return_to))));
        }
    }
    Ok(())
}

#[cfg(feature = "ssr")]
fn urlencoding_path(path: &str) -> String {
    // Slashes stay readable in a path.
    domain::account::percent_encode(path).replace("%2F", "/")
}

/// Ends the session on the server and in the browser.
#[server(prefix = "/api/fn", endpoint = "logout")]
pub async fn logout() -> Result<(), ApiError> {
    let c = call().await?;
    if let Some(token) = c.cookie(domain::constants::AUTH_COOKIE) {
        c.state.accounts.logout(&token).await.map_err(fail)?;
    }
    set_cookie(clear_session_cookie(&c));
    redirect("/");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Links from mails: each page shows one button that posts (mail scanners open links too).

/// Confirms the address of a new account.
#[server(prefix = "/api/fn", endpoint = "activate")]
pub async fn activate(token: String) -> Result<(), ApiError> {
    let c = call().await?;
    match c.state.accounts.activate(&token).await {
        Ok(user_id) => {
            // Messages that waited for this confirmation go out now (to and from the member).
            c.state.chat.release_held(user_id).await.map_err(fail)?;
            redirect("/activate/done")
        }
        Err(server::AppError::Refused(_)) => redirect("/activate/error"),
        Err(error) => return Err(fail(error)),
    }
    Ok(())
}

/// Confirms a new email address.
#[server(prefix = "/api/fn", endpoint = "confirm_email_change")]
pub async fn confirm_email_change(token: String) -> Result<(), ApiError> {
    let c = call().await?;
    let current = c.cookie(domain::constants::AUTH_COOKIE);
    c.state.accounts.confirm_email_change(&c.site.settings, &token, current.as_deref(), &c.base_url(), &c.client()).await.map_err(fail)?;
    redirect("/mail-change/do?done=1");
    Ok(())
}

/// Undoes the deletion of an account.
#[server(prefix = "/api/fn", endpoint = "reactivate")]
pub async fn reactivate(token: String) -> Result<(), ApiError> {
    let c = call().await?;
    c.state.accounts.reactivate(&token).await.map_err(fail)?;
    redirect("/account-deleted?reactivated=1");
    Ok(())
}

/// Switches notification mails off, or one kind of lifecycle mail (the unsubscribe page's button).
#[server(prefix = "/api/fn", endpoint = "unsubscribe")]
pub async fn unsubscribe(token: String, #[server(default)] kind: Option<String>) -> Result<(), ApiError> {
    let c = call().await?;
    match kind.as_deref().and_then(domain::lifecycle::LifecycleKind::parse) {
        Some(kind) => c.state.accounts.unsubscribe_from(&token, kind).await.map_err(fail)?,
        None => c.state.accounts.unsubscribe(&token).await.map_err(fail)?,
    };
    redirect("/unsubscribe?done=1");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Password recovery

#[server(prefix = "/api/fn", endpoint = "request_password_reset")]
pub async fn request_password_reset(email: String) -> Result<(), ApiError> {
    let c = call().await?;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::ResetMail, c.client_ip(), c.now()).await.map_err(fail)?;
    let email = c.state.accounts.count_reset_request(&c.site.settings, &email).await.map_err(fail)?;
    // The answer does not wait for the account's lookup and mail: known and unknown addresses
    // answer alike, in the same time.
    let (accounts, site, base_url) = (c.state.accounts.clone(), c.site.clone(), c.base_url());
    tokio::spawn(async move {
        if let Err(error) = accounts.send_reset_mail(&site.settings, &email, &base_url).await {
            error.into_public();
        }
    });
    redirect("/reset-password?sent=1");
    Ok(())
}

/// A new password from the reset link; every other session ends and the member is logged in.
#[server(prefix = "/api/fn", endpoint = "reset_password")]
pub async fn reset_password(token: String, password: String, password_repeat: String) -> Result<(), ApiError> {
    let c = call().await?;
    match c.state.accounts.reset_password(&token, &password, &password_repeat, &c.client()).await.map_err(fail)? {
        Some(session) => {
            set_cookie(session_cookie(&c, &session));
            redirect("/");
        }
        // Two-step login on: the new password and a code log in.
        None => {
            set_cookie(clear_session_cookie(&c));
            redirect("/login?reset=1");
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Settings

#[server(prefix = "/api/fn", endpoint = "change_password")]
pub async fn change_password(old_password: String, password: String, password_repeat: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    // A password check: the same per-address limit as login (and the same lockout, in `server`).
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await.map_err(fail)?;
    let session = c.state.accounts.change_password(member.id, &old_password, &password, &password_repeat, &c.client()).await.map_err(fail)?;
    set_cookie(session_cookie(&c, &session));
    redirect("/settings?saved=password");
    Ok(())
}

/// Invisible mode on (the box ticked) or off.
#[server(prefix = "/api/fn", endpoint = "set_invisible")]
pub async fn set_invisible(invisible: Option<String>) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.set_invisible(member.id, invisible.is_some()).await.map_err(fail)?;
    redirect("/settings?saved=invisible");
    Ok(())
}

#[server(prefix = "/api/fn", endpoint = "change_email")]
pub async fn change_email(email: String, password: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    // A password check: the same per-address limit as login (and the same lockout).
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await.map_err(fail)?;
    c.state.accounts.request_email_change(&c.site.settings, member.id, &email, &password, &c.base_url(), &c.client()).await.map_err(fail)?;
    redirect("/settings?saved=email");
    Ok(())
}

/// Deletes the account after checking the password; the member can undo it for 14 days.
#[server(prefix = "/api/fn", endpoint = "delete_account")]
pub async fn delete_account(password: String, #[server(default)] reason: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.rate_limiter.check(server::http::rate_limit::Limit::Login, c.client_ip(), c.now()).await.map_err(fail)?;
    c.state.accounts.delete_account(&c.site.settings, member.id, &password, &reason, &c.base_url(), &c.client()).await.map_err(fail)?;
    set_cookie(clear_session_cookie(&c));
    redirect("/account-deleted");
    Ok(())
}

/// A fresh activation link (the activation reminder's button), back to the same page.
#[server(prefix = "/api/fn", endpoint = "resend_activation")]
pub async fn resend_activation(return_to: Option<String>) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.resend_activation(&c.site.settings, member.id, &c.base_url()).await.map_err(fail)?;
    redirect(&crate::ui::forms::with_param(&server::http::visitor::safe_return_path(return_to.as_deref()), "activation=sent"));
    Ok(())
}

/// Which notification mails the member wants (ticked boxes are on).
#[server(prefix = "/api/fn", endpoint = "save_notification_prefs")]
pub async fn save_notification_prefs(messages: Option<String>, likes: Option<String>, news: Option<String>) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    let prefs = server::accounts::NotificationPrefs { messages: messages.is_some(), likes: likes.is_some(), news: news.is_some() };
    c.state.accounts.set_notification_prefs(member.id, prefs).await.map_err(fail)?;
    redirect("/settings?saved=notifications#notifications");
    Ok(())
}

/// Notification mails back on after a bounce, a spam report or an unsubscribe.
#[server(prefix = "/api/fn", endpoint = "enable_notifications")]
pub async fn enable_notifications(return_to: Option<String>) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.enable_notifications(member.id).await.map_err(fail)?;
    redirect(&server::http::visitor::safe_return_path(return_to.as_deref()));
    Ok(())
}

/// Dismisses an alert for good (SPEC §4: stored with its moment).
#[server(prefix = "/api/fn", endpoint = "dismiss_alert")]
pub async fn dismiss_alert(alert: String, return_to: Option<String>) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.accounts.dismiss_alert(member.id, &alert).await.map_err(fail)?;
    redirect(&server::http::visitor::safe_return_path(return_to.as_deref()));
    Ok(())
}

/// Stores this browser's web push subscription (SPEC §7 `{subscription}`) for the member and
/// the current session. Checked by `domain::push::Subscription::validate` here and in the
/// browser before it is sent.
#[server(prefix = "/api/fn", endpoint = "save_push_subscription")]
pub async fn save_push_subscription(endpoint: String, p256dh: String, auth: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    let session = c.cookie(domain::constants::AUTH_COOKIE).ok_or_else(|| fail(server::AppError::from(domain::ErrorCode::AuthenticationRequired)))?;
    let subscription = domain::push::Subscription { endpoint, p256dh, auth };
    c.state.push.subscribe(member.id, &session, subscription, c.state.clock.now()).await.map_err(fail)
}

/// The country, region and city of the settings page.
#[server(prefix = "/api/fn", endpoint = "save_location")]
pub async fn save_location(#[server(default)] country: String, #[server(default)] region: String, #[server(default)] city: String) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    let form = domain::profile::LocationForm { country, region, city };
    c.state.members.save_location(&c.site.settings, member.id, &form).await.map_err(fail)?;
    redirect("/settings?saved=location#location");
    Ok(())
}

/// The region nearest to a position among the site's countries (the geolocation button), or
/// `None` (SPEC §7: on failure false).
#[server(prefix = "/api/fn", endpoint = "geocode")]
pub async fn geocode(lat: f64, lon: f64) -> Result<Option<Region>, ApiError> {
    let (c, _member) = member_call().await?;
    Ok(c.state.members.guess_region(&c.site.settings, lat, lon))
}

// ---------------------------------------------------------------------------------------------
// Profile

/// `/complete-signup` (step 2 of signup) and the profile editor's basics. `from` says which:
/// `profile` returns to the profile; otherwise signup goes on to the members who fit, or to
/// the profile a visitor signed up from.
#[server(prefix = "/api/fn", endpoint = "save_basics")]
pub async fn save_basics(
    #[server(default)] gender: String,
    #[server(default)] sexuality: String,
    #[server(default)] country: String,
    #[server(default)] region: String,
    #[server(default)] city: String,
    #[server(default)] from: String,
    profile: Option<String>,
    then: Option<String>,
) -> Result<(), ApiError> {
    use domain::lander::EntryAction;
    use domain::profile::{BasicsForm, LocationForm};
    let (c, member) = member_call().await?;
    let entry = profile.and_then(|v| v.parse::<i64>().ok()).filter(|id| *id > 0 && *id != member.id);
    let then = then.as_deref().and_then(EntryAction::parse).filter(|_| entry.is_some());
    let form = BasicsForm { gender, sexuality, location: LocationForm { country, region, city } };
    if let Err(error) = c.state.members.save_basics(&c.site.settings, member.id, &form).await {
        // The form keeps what was chosen and typed.
        let page = if from == "profile" { "/profile" } else { "/complete-signup" };
        let entry = entry.map(|id| id.to_string()).unwrap_or_default();
        let l = &form.location;
        let kept = [
            ("gender", form.gender.as_str()),
            ("sexuality", form.sexuality.as_str()),
            ("country", l.country.as_str()),
            ("region", l.region.as_str()),
            ("city", l.city.as_str()),
            ("profile", entry.as_str()),
            ("then", then.as_ref().map(|a| a.as_ref()).unwrap_or_default()),
        ];
        return Err(crate::call::fail_back::<SaveBasics>(error, page, &kept));
    }
    match (from.as_str(), entry) {
        ("profile", _) => redirect("/profile?saved=profile"),
        (_, Some(id)) => {
            // What the visitor was about to do on that profile: the like is given now (this is
            // the new member's own form post); a message or a gift opens the chat with them.
            let to = match then {
                Some(EntryAction::Like) => {
                    // A profile gone meanwhile (or never there): the welcome page says so.
                    if let Err(error) = c.state.likes.like(&c.site, &member, id, domain::likes::LikeSource::Profile, c.now()).await {
                        tracing::info!(%error, id, "the like from signup was not given");
                    }
                    crate::paths::member_notice(id, crate::paths::ProfileNotice::Welcome)
                }
                Some(EntryAction::Message) => crate::paths::member_chat(id),
                Some(EntryAction::Gift) => crate::paths::member_gift(id),
                None => crate::paths::member_notice(id, crate::paths::ProfileNotice::Welcome),
            };
            redirect(&to);
        }
        _ => redirect("/signup-matches"),
    }
    Ok(())
}

/// The profile editor's details: `attributes[field]=value`, `interests[code]=on`, `about`.
#[server(prefix = "/api/fn", endpoint = "save_details")]
pub async fn save_details(
    #[server(default)] attributes: BTreeMap<String, String>,
    #[server(default)] interests: BTreeMap<String, String>,
    #[server(default)] about: String,
) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    let form = domain::profile::DetailsForm { attributes: attributes.into_iter().collect(), interests: interests.into_keys().collect(), about };
    c.state.members.save_details(member.id, &form, c.now()).await.map_err(fail)?;
    redirect("/profile?saved=profile");
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Photos

/// The upload form (multipart: the `photo` file and the `private` box). The upload rate and
/// the member's photo count are checked before the body is read, the size limit while it is
/// read, and only then is anything decoded.
#[server(prefix = "/api/fn", endpoint = "upload_photo", input = leptos::server_fn::codec::MultipartFormData)]
pub async fn upload_photo(data: leptos::server_fn::codec::MultipartData) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.rate_limiter.check_member(server::http::rate_limit::Limit::PhotoUpload, member.id, c.now()).await.map_err(fail)?;
    c.state.photos.check_room(&member).await.map_err(fail)?;
    let form = crate::call::read_photo_form(data, c.state.photos.max_bytes()).await?;
    let (bytes, private) = (form.photo, form.fields.contains_key("private"));
    c.state.photos.upload(&member, bytes, private, c.now()).await.map_err(fail)?;
    redirect("/profile?saved=photo#photos");
    Ok(())
}

#[server(prefix = "/api/fn", endpoint = "set_main_photo")]
pub async fn set_main_photo(id: i64) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.photos.set_main(member.id, id).await.map_err(fail)?;
    redirect("/profile?saved=photo#photos");
    Ok(())
}

/// Private (`private` present) or public.
#[server(prefix = "/api/fn", endpoint = "set_photo_private")]
pub async fn set_photo_private(id: i64, private: Option<String>) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.photos.set_private(member.id, id, private.is_some()).await.map_err(fail)?;
    redirect("/profile?saved=photo#photos");
    Ok(())
}

#[server(prefix = "/api/fn", endpoint = "delete_photo")]
pub async fn delete_photo(id: i64) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.photos.delete(member.id, id).await.map_err(fail)?;
    redirect("/profile?saved=photo#photos");
    Ok(())
}

/// Moderators and admins approve (`approve` present) or reject a photo waiting for review.
#[server(prefix = "/api/fn", endpoint = "review_photo")]
pub async fn review_photo(id: i64, approve: Option<String>) -> Result<(), ApiError> {
    let (c, member) = crate::call::staff_call(domain::staff::StaffArea::Photos).await?;
    let approve = approve.is_some();
    c.state.photos.review(&member, c.site.settings.id, id, approve, c.now()).await.map_err(fail)?;
    redirect(if approve { "/staff/photos?saved=approved" } else { "/staff/photos?saved=rejected" });
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The site shell

/// The language switcher: the `i18n_redirected` cookie for a year, and the member's language.
#[server(prefix = "/api/fn", endpoint = "set_language")]
pub async fn set_language(lang: String, return_to: Option<String>) -> Result<(), ApiError> {
    use domain::constants::{LANGUAGE_COOKIE, LANGUAGE_COOKIE_DAYS};
    let c = call().await?;
    let locale = domain::Locale::parse(&lang).filter(|l| l.code() == lang).ok_or_else(|| fail(domain::ErrorCode::UnsupportedLanguage))?;
    if let Some(member) = c.viewer() {
        c.state.accounts.set_language(member.id, locale).await.map_err(fail)?;
    }
    set_cookie(server::http::cookies::set(LANGUAGE_COOKIE, locale.code(), LANGUAGE_COOKIE_DAYS, c.state.config.secure_cookies));
    redirect(&server::http::visitor::safe_return_path(return_to.as_deref()));
    Ok(())
}

/// The visitor confirms being an adult who wants to see adult content (SPEC §1).
#[server(prefix = "/api/fn", endpoint = "accept_entry_warning")]
pub async fn accept_entry_warning(return_to: Option<String>) -> Result<(), ApiError> {
    use domain::constants::{ENTRY_WARNING_COOKIE, ENTRY_WARNING_COOKIE_DAYS};
    let c = call().await?;
    set_cookie(server::http::cookies::set(ENTRY_WARNING_COOKIE, "1", ENTRY_WARNING_COOKIE_DAYS, c.state.config.secure_cookies));
    redirect(&server::http::visitor::safe_return_path(return_to.as_deref()));
    Ok(())
}
