//! `make bench` (figures): how fast `/staff/figures` answers at a million visits and 100,000
//! members, on SQLite and on a private PostgreSQL cluster.
//!
//! The rollups a million visits leave behind are made the way the events make them — each
//! visit, signup, confirmation, purchase and refund through `Source::rows()` and `Counts` —
//! summed in memory and written in bulk (writing them one event at a time would take an
//! hour, and proves nothing about reading). Then, over HTTP against the real application
//! with a finance member's session, each query is asked 20 times after 3 warm-up requests;
//! the baseline is the same page over a range with no figures (the page, the session and the
//! staff check without the sums). Budget: p95 under 200 ms.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use domain::figures::{Counts, Dimension, Event, Grain, Source};
use server::members::avatars::Rng;

#[path = "common/pg_cluster.rs"]
mod pg_cluster;

/// mimalloc, as the server runs.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const DAY: i64 = 86_400;
const DAYS: i64 = 90;
const VISITS: u64 = 1_000_000;
const MEMBERS: u64 = 100_000;
const BUDGET_MS: f64 = 200.0;

/// A visit's or member's source, drawn with the spread paid traffic has: a few networks, many
/// sub ids, a long tail of click-level sub3 values; a third of the traffic without a network.
fn source(rng: &mut Rng) -> Source {
    let pick = |rng: &mut Rng, n: u64, prefix: &str| Some(format!("{prefix}{}", rng.below(n)));
    let network = (rng.below(3) > 0).then(|| format!("net{}", rng.below(12)));
    let tracked = network.is_some();
    Source {
        network,
        r#ref: if tracked { pick(rng, 40, "ref") } else { None },
        sub1: if tracked { pick(rng, 300, "s1-") } else { None },
        sub2: if tracked { pick(rng, 50, "s2-") } else { None },
        sub3: if tracked { pick(rng, 3000, "s3-") } else { None },
        lander: pick(rng, 15, "lander"),
        country: Some(["NL", "BE", "DE", "FR", "ES", "IT", "DK", "SE", "NO", "FI", "PL"][rng.below(11) as usize].to_string()),
        device: Some(["mobile", "mobile", "mobile", "desktop", "tablet"][rng.below(5) as usize].to_string()),
        // A quarter of the traffic in one of three split tests of two designs each.
        variant: (rng.below(4) == 0).then(|| format!("test{}:design{}", rng.below(3), rng.below(2))),
    }
}

type Key = (String, &'static str, i64, String, String);
/// A paying member's day: the day, the member and the source.
type Payer = (i64, i64, Source);

/// The rollup rows and payers a million visits and 100,000 members leave, ending `today`.
fn rollups(today: i64) -> (HashMap<Key, Counts>, Vec<Payer>) {
    let mut rng = Rng::new(7);
    let mut rows: HashMap<Key, Counts> = HashMap::new();
    let mut add = |source: &Source, day: i64, currency: &str, counts: Counts| {
        for (scope, dim, value) in source.rows() {
            *rows.entry((scope, dim.as_str(), day, value, currency.to_string())).or_default() += counts;
        }
    };
    let first = today - DAYS + 1;
    for _ in 0..VISITS {
        let s = source(&mut rng);
        add(&s, first + rng.below(DAYS as u64) as i64, "", Counts::of(Event::Visit));
    }
    let mut payers = Vec::new();
    for user in 0..MEMBERS {
        let s = source(&mut rng);
        let signup = (first + rng.below(DAYS as u64) as i64) * DAY + rng.below(DAY as u64) as i64;
        add(&s, signup / DAY, "", Counts::of(Event::Signup));
        if rng.below(10) < 7 {
            add(&s, signup / DAY, "", Counts::of(Event::Confirmed));
            // One in ten confirmed members buys, some of them again.
            if rng.below(10) == 0 {
                let mut at = signup + rng.below(3 * DAY as u64) as i64;
                for n in 0..(1 + rng.below(3)) {
                    if at / DAY > today {
                        break;
                    }
                    let amount = [1995, 3995, 7995][rng.below(3) as usize];
                    add(&s, at / DAY, "EUR", Counts::of(Event::Purchase { amount, first: n == 0 }));
                    add(&s, signup / DAY, "EUR", Counts::cohort(amount, at - signup));
                    payers.push((at / DAY, user as i64 + 1_000_000, s.clone()));
                    if rng.below(40) == 0 {
                        add(&s, at / DAY, "EUR", Counts::of(Event::Refund { amount }));
                    }
                    at += rng.below(10 * DAY as u64) as i64;
                }
            }
        }
    }
    (rows, payers)
}

/// Writes the rollups in bulk (one transaction, a few hundred rows per statement), day by day
/// as the site's events write them (a day's rows are made on that day); written in a hash
/// map's order instead, each row of a range sat on a table page of its own, which PostgreSQL
/// then read from disk on every page view.
async fn write(db: &server::Db, site_id: i64, rows: &HashMap<Key, Counts>, payers: &[Payer]) {
    let mut tx = db.begin().await.expect("begin");
    let mut entries: Vec<(&Key, &Counts)> = rows.iter().collect();
    entries.sort_unstable_by(|a, b| (a.0 .2, a.0).cmp(&(b.0 .2, b.0)));
    for chunk in entries.chunks(400) {
        let mut sql = String::from(
            "INSERT INTO figure_days (site_id, scope, dim, day, value, currency, visits, signups, confirmed, first_purchases, purchases, gross, refunded, cohort_1d, cohort_7d, cohort_30d) VALUES ",
        );
        let values: Vec<String> = chunk
            .iter()
            .map(|((scope, dim, day, value, currency), c)| {
                format!(
                    "({site_id}, '{scope}', '{dim}', {day}, '{value}', '{currency}', {}, {}, {}, {}, {}, {}, {}, {}, {}, {})",
                    c.visits, c.signups, c.confirmed, c.first_purchases, c.purchases, c.gross, c.refunded, c.cohort_1d, c.cohort_7d, c.cohort_30d
                )
            })
            .collect();
        sql.push_str(&values.join(", "));
        sqlx::query(&sql).execute(&mut *tx).await.expect("insert rollups");
    }
    // The weekly and monthly rollups the same events keep (`server::figures::add`).
    let mut periods: HashMap<(&str, i64, &str, &str, &str, &str), Counts> = HashMap::new();
    for ((scope, dim, day, value, currency), c) in rows {
        for grain in [Grain::Week, Grain::Month] {
            *periods.entry((grain.as_str(), grain.start(*day), scope.as_str(), dim, value.as_str(), currency.as_str())).or_default() += *c;
        }
    }
    let mut entries: Vec<_> = periods.iter().collect();
    entries.sort_unstable_by(|a, b| (a.0 .1, a.0).cmp(&(b.0 .1, b.0)));
    for chunk in entries.chunks(400) {
        let values: Vec<String> = chunk
            .iter()
            .map(|((grain, start, scope, dim, value, currency), c)| {
                format!(
                    "({site_id}, '{grain}', {start}, '{scope}', '{dim}', '{value}', '{currency}', {}, {}, {}, {}, {}, {}, {}, {}, {}, {})",
                    c.visits, c.signups, c.confirmed, c.first_purchases, c.purchases, c.gross, c.refunded, c.cohort_1d, c.cohort_7d, c.cohort_30d
                )
            })
            .collect();
        let sql = format!(
            "INSERT INTO figure_periods (site_id, grain, start, scope, dim, value, currency, visits, signups, confirmed, first_purchases, purchases, gross, refunded, cohort_1d, cohort_7d, cohort_30d) VALUES {}",
            values.join(", ")
        );
        sqlx::query(&sql).execute(&mut *tx).await.expect("insert period rollups");
    }
    let mut seen = std::collections::HashSet::new();
    let payers: Vec<_> = payers.iter().filter(|(day, user, _)| seen.insert((*day, *user))).collect();
    for chunk in payers.chunks(400) {
        let values: Vec<String> = chunk
            .iter()
            .map(|(day, user, s)| {
                let v = |d| s.value(d);
                format!(
                    "({site_id}, {day}, {user}, '{}', '{}', '{}', '{}', '{}', '{}', '{}', '{}')",
                    v(Dimension::Network),
                    v(Dimension::Ref),
                    v(Dimension::Sub1),
                    v(Dimension::Sub2),
                    v(Dimension::Sub3),
                    v(Dimension::Lander),
                    v(Dimension::Country),
                    v(Dimension::Device)
                )
            })
            .collect();
        let sql =
            format!("INSERT INTO figure_payers (site_id, day, user_id, network, ref, sub1, sub2, sub3, lander, country, device) VALUES {}", values.join(", "));
        sqlx::query(&sql).execute(&mut *tx).await.expect("insert payers");
    }
    tx.commit().await.expect("commit");
}

/// A finance member with two-step login on; answers the session cookie.
async fn finance(state: &server::AppState) -> String {
    let site = state.sites.for_host(Some("localhost")).expect("default site");
    let form = domain::account::SignupForm {
        email: "geld@example.nl".into(),
        name: "Geld".into(),
        password: "rode kater op het dak".into(),
        date_of_birth: "1980-05-17".into(),
        signup_message: String::new(),
    };
    let request = server::accounts::SignupRequest {
        site: &site.settings,
        form,
        tracking: Default::default(),
        locale: domain::Locale::Nl,
        base_url: "http://localhost".into(),
        client: Default::default(),
        invitation: None,
    };
    let (_, session) = state.accounts.signup_confirmed(request).await.expect("signup");
    state.accounts.set_staff_role("geld@example.nl", domain::staff::StaffRole::Finance, true).await.expect("role");
    sqlx::query("UPDATE users SET totp_secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' WHERE email = $1")
        .bind("geld@example.nl")
        .execute(state.db.pool())
        .await
        .expect("two-step");
    format!("entry_accepted=1; auth.session={session}")
}

/// p50 and p95 in ms of 20 requests after 3 to warm up.
async fn time(client: &reqwest::Client, url: &str, cookie: &str) -> (f64, f64) {
    let mut times = Vec::new();
    for i in 0..23 {
        let start = Instant::now();
        let res = client.get(url).header("cookie", cookie).send().await.expect("request");
        assert!(res.status().is_success(), "{url}: {}", res.status());
        let body = res.text().await.expect("body");
        assert!(body.contains("figures-chart"), "{url}: not the figures page");
        if i >= 3 {
            times.push(start.elapsed());
        }
    }
    times.sort();
    let ms = |p: f64| times[((times.len() as f64 * p) as usize).min(times.len() - 1)].as_secs_f64() * 1000.0;
    (ms(0.5), ms(0.95))
}

async fn bench(label: &str, database_url: Option<String>, rows: &HashMap<Key, Counts>, payers: &[Payer], today: i64) {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut vars: HashMap<&str, String> = [
        ("VONK_ADDR", "127.0.0.1:0".to_string()),
        ("DATA_DIR", dir.path().display().to_string()),
        ("VONK_DEMO_MEMBERS", "0".to_string()),
        ("VONK_PAYMENTS", "test".to_string()),
    ]
    .into_iter()
    .collect();
    if let Some(url) = database_url {
        vars.insert("DATABASE_URL", url);
    }
    let config = server::Config::from_lookup(|k| vars.get(k).cloned()).expect("config");
    let state = server::AppState::start(config, app::ssr::page_links()).await.expect("start");
    let site_id = state.sites.for_host(Some("localhost")).expect("site").settings.id;
    let writing = Instant::now();
    write(&state.db, site_id, rows, payers).await;
    // The finance member before the members below: they take the ids after it.
    let cookie = finance(&state).await;
    // 100,000 members' sources, as the signups keep them.
    let mut rng = Rng::new(11);
    let mut tx = state.db.begin().await.expect("begin");
    let (existing,): (i64,) = sqlx::query_as("SELECT COALESCE(MAX(id), 0) FROM users").fetch_one(&mut *tx).await.expect("users");
    for chunk in (0..MEMBERS as i64).collect::<Vec<_>>().chunks(500) {
        let users: Vec<String> = chunk
            .iter()
            .map(|i| format!("({}, {site_id}, 'lid{i}@example.nl', 'x', 'nl', {}, 'active')", existing + 1 + i, (today - rng.below(DAYS as u64) as i64) * DAY))
            .collect();
        // PostgreSQL's ids are its own unless told otherwise.
        let overriding = if label == "PostgreSQL" { "OVERRIDING SYSTEM VALUE " } else { "" };
        sqlx::query(&format!("INSERT INTO users (id, site_id, email, password_hash, language, signup_date, status) {overriding}VALUES {}", users.join(", ")))
            .execute(&mut *tx)
            .await
            .expect("users");
        let sources: Vec<String> = chunk
            .iter()
            .map(|i| {
                let s = source(&mut rng);
                format!(
                    "({}, {site_id}, {}, '{}', '{}', '{}')",
                    existing + 1 + i,
                    today * DAY,
                    s.value(Dimension::Network),
                    s.value(Dimension::Sub1),
                    s.value(Dimension::Device)
                )
            })
            .collect();
        sqlx::query(&format!("INSERT INTO member_sources (user_id, site_id, signup_at, network, sub1, device) VALUES {}", sources.join(", ")))
            .execute(&mut *tx)
            .await
            .expect("sources");
    }
    tx.commit().await.expect("commit");
    if label == "PostgreSQL" {
        sqlx::query("ANALYZE").execute(state.db.pool()).await.expect("analyze");
    }
    println!("{label}: {} rollup rows, {} payer-days and {MEMBERS} members written in {:.1}s", rows.len(), payers.len(), writing.elapsed().as_secs_f64());

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app::ssr::router(state.clone(), app::ssr::leptos_options(addr));
    let server = tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    let client = reqwest::Client::builder().timeout(Duration::from_secs(60)).build().unwrap();
    let base = format!("http://{addr}/staff/figures");
    let (b50, b95) = time(&client, &format!("{base}?from=2001-01-01&to=2001-01-30"), &cookie).await;
    println!("{label}: baseline, the page over 30 days without figures: p50 {b50:.1} ms, p95 {b95:.1} ms");
    let day = |d: i64| domain::figures::Grain::Day.label(d);
    let range90 = format!("from={}&to={}", day(today - DAYS + 1), day(today));
    let queries = [
        ("30 days by network (the default)", String::new()),
        ("90 days by network, per week", format!("{range90}&grain=week")),
        ("90 days by sub id 3 (3,000 values)", format!("{range90}&by=sub3&sort=visits")),
        ("90 days within one network by sub id 1", format!("{range90}&network=net3&by=sub1&grain=month")),
        ("90 days by country, sorted by ARPPU", format!("{range90}&by=country&sort=arppu")),
    ];
    for (what, query) in queries {
        let (p50, p95) = time(&client, &format!("{base}?{query}"), &cookie).await;
        let verdict = if p95 < BUDGET_MS { "within" } else { "OVER" };
        println!("{label}: {what}: p50 {p50:.1} ms, p95 {p95:.1} ms ({:.1}x the baseline's p95; {verdict} the {BUDGET_MS:.0} ms budget)", p95 / b95);
    }
    server.abort();
}

#[tokio::main]
async fn main() {
    let today = server::seed::now_unix() / DAY;
    let building = Instant::now();
    let (rows, payers) = rollups(today);
    println!(
        "figures: {VISITS} visits and {MEMBERS} signups over {DAYS} days summed into {} rollup rows and {} payer-days in {:.1}s",
        rows.len(),
        payers.len(),
        building.elapsed().as_secs_f64()
    );
    bench("SQLite", None, &rows, &payers, today).await;
    match pg_cluster::PgCluster::start("vonk-figures-bench-pg-", "") {
        Ok(cluster) => bench("PostgreSQL", Some(cluster.url.clone()), &rows, &payers, today).await,
        Err(error) => println!("PostgreSQL: not measured: {error}"),
    }
}
