//! The page shell: the home page, languages, the entry warning, 404, info pages, the nonce on every script, the manifest, headers.

use super::*;

#[tokio::test]
async fn home_renders_in_dutch_with_shell_and_entry_warning() {
    let app = start().await;
    let (status, headers, html) = app.get("/", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(r#"<html lang="nl""#), "default language is Dutch");
    assert!(html.contains("Ontmoet iemand die dezelfde vonk voelt"));
    assert!(html.contains("layout--default"));
    for href in
        ["/pages/terms", "/pages/privacy", "/pages/cookies", "/pages/ban", "/pricing", "/complaints", "/pages/return-policy", "/pages/faq", "/pages/service"]
    {
        assert!(html.contains(&format!(r#"href="{href}""#)), "footer link {href}");
    }
    assert!(html.contains(r#"data-testid="entry-warning""#), "entry warning for a new visitor");
    assert!(html.contains("<title>Daten en chatten voor volwassenen | Vonk</title>"));
    assert_eq!(headers["x-frame-options"], "DENY");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert!(headers["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'none'"));

    let (_, _, html) = app.get("/", &[("cookie", "entry_accepted=1")]).await;
    assert!(!html.contains(r#"data-testid="entry-warning""#), "accepted warning stays away");
}

#[tokio::test]
async fn the_signup_modal_brings_its_form_when_it_opens_in_the_pages_language() {
    let app = start().await;
    // A visitor's page carries the modal's frame only; the form's labels and checks are not on it.
    let (_, _, html) = app.get("/", &[("cookie", "entry_accepted=1")]).await;
    assert!(html.contains(r#"data-testid="signup-modal""#));
    assert!(html.contains("Aanmeldformulier laden…"));
    assert!(!html.contains(r#"autocomplete="new-password""#), "no signup form on the page");
    // Opening it reads them, in the language the page is in.
    let (status, _, body) = app.get("/api/fn/signup_modal", &[]).await;
    assert_eq!(status, StatusCode::OK);
    let content: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(content["labels"]["password"], "Wachtwoord");
    assert_eq!(content["intro"], "Binnen een minuut klaar. Je e-mailadres blijft privé.");
    assert!(content["texts"].as_array().unwrap().iter().any(|t| t[0] == "validation.email_taken"), "{body}");
    let (_, _, body) = app.get("/api/fn/signup_modal", &[("cookie", "i18n_redirected=en")]).await;
    let content: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(content["labels"]["password"], "Password");
}

#[tokio::test]
async fn every_script_on_a_page_carries_the_nonce_of_its_policy() {
    let app = start().await;
    let origin = app.origin();
    let anna = ready_member(&app, "anna@example.nl", "female").await;
    let mut seen = std::collections::HashSet::new();
    // A visitor's page, a member's pages with islands and resources, the not-found page.
    for (path, cookie) in
        [("/", ""), ("/members", anna.as_str()), ("/profile", anna.as_str()), ("/settings", anna.as_str()), ("/chats", anna.as_str()), ("/no-such-page", "")]
    {
        let (_, headers, html) = app.get(path, &[("cookie", cookie), ("accept", "text/html")]).await;
        let nonce = csp_nonce(&headers);
        assert!(nonce.len() >= 32 && seen.insert(nonce.clone()), "{path}: a fresh nonce per answer");
        let scripts: Vec<&str> = html.match_indices("<script").map(|(i, _)| &html[i..i + html[i..].find('>').unwrap()]).collect();
        assert!(!scripts.is_empty(), "{path}: the hydration scripts");
        for tag in scripts {
            assert!(tag.contains(&format!(r#"nonce="{nonce}""#)), "{path}: {tag} runs without the nonce");
        }
        assert!(!html.contains(" onclick=") && !html.contains(" onload=") && !html.contains("javascript:"), "{path}: no inline handlers");
    }
    // Server-function answers get a policy too.
    let res = app.call("logout", "", &[("origin", &origin), ("cookie", &anna)]).await;
    csp_nonce(res.headers());
}

#[tokio::test]
async fn language_follows_cookie_then_site_then_browser() {
    let app = start().await;
    let (_, _, html) = app.get("/", &[("cookie", "i18n_redirected=fr")]).await;
    assert!(html.contains(r#"<html lang="fr""#));
    // The default site's domain language (nl-NL) beats the browser's preference.
    let (_, _, html) = app.get("/", &[("accept-language", "de-DE,de;q=0.9")]).await;
    assert!(html.contains(r#"<html lang="nl""#));
    // Another site (by Host) has its own language and theme.
    let (_, _, html) = app.get("/", &[("host", "vonk.de")]).await;
    assert!(html.contains(r#"<html lang="de""#));
    assert!(html.contains("--color-primary:#6d1140"));
    // Unsupported cookie values fall through.
    let (_, _, html) = app.get("/", &[("cookie", "i18n_redirected=xx")]).await;
    assert!(html.contains(r#"<html lang="nl""#));
}

#[tokio::test]
async fn switcher_offers_the_countrys_languages() {
    let app = start_in("BE").await;
    let (_, _, html) = app.get("/", &[]).await;
    // A visitor from Belgium: nl, fr, de.
    for lang in ["nl", "fr", "de"] {
        assert!(html.contains(&format!(r#"data-lang="{lang}""#)), "switcher offers {lang}");
    }
    assert!(!html.contains(r#"data-lang="pl""#));
    let (status, _, html) = app.get("/lang-config", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(html.matches("class=\"lang-card__name\"").count(), 11, "all eleven languages on /lang-config");
}

#[tokio::test]
async fn language_post_sets_cookie_only_for_same_origin_and_valid_input() {
    let app = start().await;
    let origin = app.origin();
    let ok = app.form("set_language", "lang=de&return_to=%2Fpricing", "/pricing", &[("origin", &origin)]).await;
    assert_eq!(ok.status(), StatusCode::FOUND);
    assert_eq!(ok.headers()["location"], "/pricing");
    let cookie = ok.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("i18n_redirected=de;"));
    assert!(cookie.contains("Max-Age=31536000") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"));

    let cross = app.form("set_language", "lang=de", "/pricing", &[("origin", "https://evil.example")]).await;
    assert_eq!(cross.status(), StatusCode::FORBIDDEN);
    assert!(cross.headers().get("set-cookie").is_none(), "a cross-origin post changes nothing");
    assert_eq!(cross.text().await.unwrap(), r#"{"code":"forbidden_origin"}"#);
    let fetch_meta = app.form("set_language", "lang=de", "/pricing", &[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(fetch_meta.status(), StatusCode::FORBIDDEN);

    let bad = app.call("set_language", "lang=xx", &[("origin", &origin)]).await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.headers().get("set-cookie").is_none());
    assert_eq!(bad.text().await.unwrap(), r#"{"code":"unsupported_language"}"#);
    // The same from the switcher's form: back to the page with the refusal.
    let bad = app.form("set_language", "lang=xx&return_to=%2Fpricing", "/pricing", &[("origin", &origin)]).await;
    let (error, page) = refusal(&bad, "set_language");
    assert_eq!((error.code, page.as_str()), (domain::ErrorCode::UnsupportedLanguage, "/pricing"));

    let open_redirect = app.form("set_language", "lang=en&return_to=%2F%2Fevil.example", "/pricing", &[("origin", &origin)]).await;
    assert_eq!(open_redirect.headers()["location"], "/");
}

#[tokio::test]
async fn entry_warning_acceptance_sets_cookie() {
    let app = start().await;
    let origin = app.origin();
    let res = app.form("accept_entry_warning", "return_to=%2Fpages%2Ffaq", "/pages/faq", &[("origin", &origin)]).await;
    assert_eq!(res.status(), StatusCode::FOUND);
    assert_eq!(res.headers()["location"], "/pages/faq");
    assert!(res.headers()["set-cookie"].to_str().unwrap().starts_with("entry_accepted=1;"));
}

#[tokio::test]
async fn unknown_paths_get_the_404_page() {
    let app = start().await;
    let (status, _, html) = app.get("/does-not-exist", &[]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("Deze pagina kon niet worden gevonden"));
    assert!(html.contains("Terug naar de startpagina"));
    let (status, _, html) = app.get("/members/123/unknown/deeper", &[("cookie", "i18n_redirected=en")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(html.contains("This page could not be found"));
    assert!(html.contains("Back to the home page"));
}

#[tokio::test]
async fn info_pages_show_company_details_from_the_database() {
    let app = start().await;
    for (path, title) in [
        ("/pages/terms", "Algemene voorwaarden"),
        ("/pages/privacy", "Privacyverklaring"),
        ("/pages/cookies", "Cookiebeleid"),
        ("/pages/ban", "Blokkeringsbeleid"),
        ("/pages/return-policy", "Retourbeleid"),
        ("/pages/faq", "Veelgestelde vragen"),
        ("/pages/service", "Klantenservice"),
        ("/complaints", "Klachten"),
    ] {
        let (status, _, html) = app.get(path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(html.contains(&format!("<h1 class=\"page__title\">{title}</h1>")), "{path} title");
        assert!(html.contains("Vonk Media B.V.") && html.contains("81234567"), "{path} company details");
        assert!(!html.contains("{site}") && !html.contains("{email}"), "{path} has unfilled placeholders");
        for namespace in ["pages.", "title.", "error.", "nav.", "footer."] {
            assert!(!html.contains(&format!(">{namespace}")), "{path} shows a raw locale key {namespace}…");
        }
    }
    let (_, _, html) = app.get("/pages/terms", &[]).await;
    assert!(html.contains("Versie van 1 december 2023"), "terms version date");
    let (_, _, html) = app.get("/pages/service", &[]).await;
    assert!(html.contains(">+31201234567<"), "support phone without dashes and spaces");
}

#[tokio::test]
async fn server_function_answers_same_origin_only() {
    let app = start().await;
    let origin = app.origin();
    let res = app.post_form("/api/fn/credit_packs", "", &[("origin", &origin), ("accept", "application/json")]).await;
    assert_eq!(res.status(), StatusCode::OK);
    let packs: serde_json::Value = serde_json::from_str(&res.text().await.unwrap()).unwrap();
    assert_eq!(packs.as_array().unwrap().len(), 4);
    let cross = app.post_form("/api/fn/credit_packs", "", &[("origin", "https://evil.example")]).await;
    assert_eq!(cross.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn a_us_edition_footer_has_the_2257_statement_and_privacy_choices() {
    let app = start_with(&[("VONK_PAGE_CACHE_SECS", "0")]).await;
    let (_, _, page) = app.get("/pages/terms", &[]).await;
    assert!(!page.contains(r#"href="/pages/2257""#) && !page.contains("footer-us"), "not on the Dutch site");
    sqlx::query("UPDATE sites SET geoip_country = 'US'").execute(app.state.db.pool()).await.unwrap();
    app.state.sites.reload().await.unwrap();
    let (_, _, page) = app.get("/pages/terms", &[("accept-language", "en")]).await;
    assert!(page.contains(r#"href="/pages/2257""#) && page.contains(r#"href="/pages/privacy-choices""#), "the US footer links");
    assert!(page.contains(r#"data-testid="footer-us""#) && page.contains("18 U.S.C. 2257"));
    for (path, title) in [("/pages/2257", "Verklaring 18 U.S.C. 2257"), ("/pages/privacy-choices", "Jouw privacykeuzes")] {
        let (status, _, page) = app.get(path, &[]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(page.contains(&format!("<h1 class=\"page__title\">{title}</h1>")), "{path}");
        assert!(page.contains("support@"), "{path}: the support address filled in");
        assert!(!page.contains("{company}") && !page.contains("{email}") && !page.contains("{site}"), "{path}: every placeholder filled");
    }
}

#[tokio::test]
async fn members_answers_are_not_stored_and_https_sites_send_hsts() {
    let app = start().await;
    let anna = signed_up(&app, "anna@example.nl").await;
    let (_, headers, _) = app.get("/members", &[("cookie", &anna)]).await;
    assert_eq!(headers["cache-control"], "private, no-store");
    assert!(headers.get("strict-transport-security").is_none(), "no HSTS over plain http");
    let (_, headers, _) = app.get("/pages/faq", &[]).await;
    assert!(headers.get("cache-control").is_none_or(|v| !v.to_str().unwrap().contains("no-store")), "a visitor's public page may be cached");
    let res = app.call("transactions", "", &[("cookie", &anna), ("origin", &app.origin())]).await;
    assert_eq!(res.headers()["cache-control"], "private, no-store");

    let https = start_with(&[("VONK_SECURE_COOKIES", "true"), ("VONK_ALLOW_TEST_PAYMENTS", "true")]).await;
    let (_, headers, _) = https.get("/", &[]).await;
    assert_eq!(headers["strict-transport-security"], "max-age=31536000; includeSubDomains");
}

#[tokio::test]
async fn the_app_manifest_is_the_sites() {
    let app = start().await;
    let (status, headers, body) = app.get("/manifest.webmanifest", &[]).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers["content-type"], "application/manifest+json");
    let manifest: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!((manifest["name"].as_str(), manifest["display"].as_str(), manifest["start_url"].as_str()), (Some("Vonk"), Some("standalone"), Some("/members")));
    let sizes: Vec<&str> = manifest["icons"].as_array().unwrap().iter().map(|i| i["sizes"].as_str().unwrap()).collect();
    assert_eq!(sizes, vec!["any", "192x192", "512x512", "512x512"]);
    // The installed app's back button is on a member's profile, not on search.
    let (_, _, html) = app.get("/members", &[]).await;
    assert!(!html.contains("data-app-back"));
}

/// Building a router while another serves pages (the tests start dozens in one process) must not
/// leave a page waiting: route generation switches resource loading off process-wide while it
/// runs, so the routes are generated once per process.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_render_while_another_router_is_built() {
    // Every page rendered (none from the visitor page cache).
    let app = start_with(&[("VONK_DEMO_MEMBERS", "20"), ("VONK_PAGE_CACHE_SECS", "0")]).await;
    let state = app.state.clone();
    let builder = tokio::task::spawn_blocking(move || {
        for _ in 0..40 {
            drop(app::ssr::router(state.clone(), app::ssr::leptos_options("127.0.0.1:0".parse().unwrap())));
        }
    });
    for path in ["/landers/gallery", "/members", "/landers/video", "/pages/faq"].iter().cycle().take(40) {
        let (status, _, html) =
            tokio::time::timeout(std::time::Duration::from_secs(10), app.get(path, &[])).await.unwrap_or_else(|_| panic!("{path} did not render"));
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(html.contains("</html>"), "{path}");
    }
    builder.await.unwrap();
}

/// `cdn_prefix`: staff set a CDN's address (a second local origin here); pages then link the
/// stylesheet, the hydration script, the widget bundle and public portraits there, the CSP lets
/// the page load files from it (scripts only through the nonce), and the built files and public
/// portraits answer other origins. A value that is no plain web address is refused.
#[tokio::test]
async fn a_sites_files_come_from_its_cdn_prefix() {
    let app = start().await;
    let origin = app.origin();
    let staff = ready_member(&app, "staff@example.nl", "male").await;
    grant_staff(&app, "staff@example.nl", domain::staff::StaffRole::Admin).await;
    let port = app.base.rsplit(':').next().unwrap().to_string();
    let cdn = format!("http://localhost:{port}");

    for bad in ["javascript%3Aalert(1)", "https%3A%2F%2Fcdn.vonk.nl%22+onload%3D%22x", "https%3A%2F%2Fx.nl%3B+script-src+*"] {
        let res = app.form("staff_site_delivery", &format!("cdn_prefix={bad}"), "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
        assert_eq!(refusal(&res, "staff_site_delivery").0.code, domain::ErrorCode::UrlInvalid, "{bad}");
    }
    assert_eq!(app.state.sites.for_host(None).unwrap().settings.cdn_prefix, "");
    let res = app.form("staff_site_delivery", &format!("cdn_prefix={cdn}/"), "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=delivery#delivery");
    assert_eq!(app.state.sites.for_host(None).unwrap().settings.cdn_prefix, cdn, "stored without the trailing slash");

    let (status, headers, html) = app.get("/", &[("accept", "text/html")]).await;
    assert_eq!(status, StatusCode::OK);
    assert!(html.contains(&format!("href=\"{cdn}/assets/")), "the stylesheet from the CDN");
    assert!(html.contains(&format!("data-widgets=\"{cdn}/assets/")), "the widget bundle from the CDN");
    assert!(html.contains(&format!("{cdn}/assets/")) && html.contains("/pkg/vonk.js"), "the hydration script from the CDN");
    assert!(html.contains("href=\"/manifest.webmanifest\"") && html.contains("href=\"/favicon.svg\""), "the manifest and icon stay on the site");
    let policy = headers["content-security-policy"].to_str().unwrap();
    for directive in ["style-src", "img-src", "font-src", "connect-src", "media-src"] {
        let d = policy.split(';').find(|d| d.trim().starts_with(directive)).unwrap();
        assert!(d.contains(&cdn), "{d}");
    }
    assert!(!policy.split(';').find(|d| d.trim().starts_with("script-src")).unwrap().contains(&cdn));

    // The second origin answers for the site's public files, to any page.
    let client = reqwest::Client::new();
    let res = client.get(format!("{cdn}/media/public/nothing-here.webp")).header("origin", &origin).send().await.unwrap();
    assert_eq!(res.headers().get("access-control-allow-origin").map(|v| v.to_str().unwrap()), Some("*"));

    // Empty again: everything from the site itself.
    let res = app.form("staff_site_delivery", "cdn_prefix=", "/staff/site", &[("origin", &origin), ("cookie", &staff)]).await;
    assert_eq!(location(&res), "/staff/site?saved=delivery#delivery");
    let (_, headers, html) = app.get("/", &[("accept", "text/html")]).await;
    assert!(!html.contains(&cdn) && !headers["content-security-policy"].to_str().unwrap().contains(&cdn));
}
