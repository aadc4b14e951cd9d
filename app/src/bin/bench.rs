//! `make bench`: server-side rendering speed as a ratio against a bare axum handler that returns
//! the same bytes, measured in one run over loopback on this machine.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::header;
use axum::response::IntoResponse;

/// mimalloc: per-thread free lists suit a server that allocates and frees many small
/// strings per request on every worker thread (a third of the CPU was malloc/free with glibc's).
#[cfg(feature = "ssr")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const CONNECTIONS: usize = 16;
/// The latency budget is measured under more load: p99 at this many connections.
const BUSY_CONNECTIONS: usize = 64;
const WARMUP: Duration = Duration::from_secs(1);

/// Seconds per measurement (`BENCH_SECONDS`, default 5).
fn duration() -> Duration {
    Duration::from_secs(std::env::var("BENCH_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(5))
}

struct Figures {
    rps: f64,
    p50_ms: f64,
    p95_ms: f64,
    p99_ms: f64,
}

/// Pages are GETs; server functions (the top bar's counters) are POSTs.
fn request(client: &reqwest::Client, url: &str) -> reqwest::RequestBuilder {
    if url.contains("/api/fn/") {
        client.post(url).header("accept", "application/json")
    } else {
        client.get(url)
    }
}

async fn load(client: &reqwest::Client, url: &str, cookie: &str, connections: usize) -> Figures {
    // Warm up connections and caches first.
    run(client, url, cookie, WARMUP, connections).await;
    run(client, url, cookie, duration(), connections).await
}

async fn run(client: &reqwest::Client, url: &str, cookie: &str, duration: Duration, connections: usize) -> Figures {
    let count = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + duration;
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let client = client.clone();
        let url = url.to_string();
        let cookie = cookie.to_string();
        let count = count.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let start = Instant::now();
                let res = request(&client, &url).header("cookie", &cookie).send().await.expect("request");
                assert!(res.status().is_success(), "{url}: {}", res.status());
                let _ = res.bytes().await.expect("body");
                latencies.push(start.elapsed());
                count.fetch_add(1, Ordering::Relaxed);
            }
            latencies
        }));
    }
    let mut all: Vec<Duration> = Vec::new();
    for t in tasks {
        all.extend(t.await.unwrap());
    }
    all.sort();
    let pct = |p: f64| all.get(((all.len() as f64 * p) as usize).min(all.len().saturating_sub(1))).map_or(0.0, |d| d.as_secs_f64() * 1000.0);
    Figures { rps: count.load(Ordering::Relaxed) as f64 / duration.as_secs_f64(), p50_ms: pct(0.50), p95_ms: pct(0.95), p99_ms: pct(0.99) }
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let members = std::env::var("BENCH_MEMBERS").unwrap_or_else(|_| "100000".into());
    let vars: HashMap<&str, String> = [
        ("VONK_ADDR", "127.0.0.1:0".to_string()),
        ("DATA_DIR", dir.path().display().to_string()),
        ("VONK_DEMO_MEMBERS", members.clone()),
        ("VONK_PAYMENTS", "test".to_string()),
    ]
    .into_iter()
    .collect();
    let config = server::Config::from_lookup(|k| vars.get(k).cloned()).expect("config");
    let seeding = Instant::now();
    let state = server::AppState::start(config, app::ssr::page_links()).await.expect("start");
    println!("seeded {members} demo members per site (SQLite) in {:.1}s", seeding.elapsed().as_secs_f64());
    search_server_time(&state).await;
    // A logged-in member with likes and notifications: the session, counters and the member's
    // own rows are read on every page.
    let member_cookie = format!("entry_accepted=1; auth.session={}", bench_member(&state).await);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = app::ssr::router(state.clone(), app::ssr::leptos_options(addr));
    let listener = app::ssr::no_delay(listener);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    // The same application with every visitor page rendered (no page cache): what a miss costs.
    let render_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let render_addr = render_listener.local_addr().unwrap();
    let rendering = app::ssr::router_with_page_cache(state, app::ssr::leptos_options(render_addr), Duration::ZERO);
    let render_listener = app::ssr::no_delay(render_listener);
    tokio::spawn(async move { axum::serve(render_listener, rendering).await.unwrap() });

    let client = reqwest::Client::builder().pool_max_idle_per_host(BUSY_CONNECTIONS).build().unwrap();
    let visitor = "entry_accepted=1".to_string();
    // Visitor pages twice: as served (the page cache keeps them a few seconds) and rendered
    // on every request.
    let (served, rendered) = (false, true);
    let paths: Vec<(&str, &String, bool)> = vec![
        ("/", &visitor, served),
        ("/", &visitor, rendered),
        ("/pages/terms", &visitor, served),
        ("/pages/terms", &visitor, rendered),
        ("/pricing", &visitor, served),
        ("/pricing", &visitor, rendered),
        ("/favicon.svg", &visitor, served),
        ("/members?gender=female&min_age=25&max_age=45", &visitor, served),
        ("/members?gender=female&min_age=25&max_age=45", &visitor, rendered),
        ("/members?country=NL&region=NL-NH&gender=male", &visitor, served),
        ("/members?page=5", &visitor, served),
        ("/members?page=5", &visitor, rendered),
        ("/members?gender=female&country=NL", &member_cookie, served),
        ("/likes", &member_cookie, served),
        ("/notifications", &member_cookie, served),
        ("/api/fn/counts", &member_cookie, served),
    ];
    // `BENCH_ONLY=/members` measures only the paths that contain it (for profiling one page).
    let only = std::env::var("BENCH_ONLY").unwrap_or_default();
    let paths: Vec<_> = paths.into_iter().filter(|(p, _, _)| p.contains(only.as_str())).collect();
    let mut bodies = HashMap::new();
    for (path, cookie, _) in &paths {
        let res = request(&client, &format!("http://{addr}{path}")).header("cookie", cookie.as_str()).send().await.unwrap();
        assert!(res.status().is_success(), "{path}: {}", res.status());
        bodies.insert(*path, res.text().await.unwrap());
    }
    // `BENCH_DUMP=dir` keeps the pages as measured, to look at what they weigh.
    if let Ok(dir) = std::env::var("BENCH_DUMP") {
        for (i, (path, body)) in bodies.iter().enumerate() {
            let name = format!("{i:02}{}.html", path.replace(['/', '?', '&', '='], "_"));
            std::fs::write(std::path::Path::new(&dir).join(name), body).expect("dump");
        }
    }

    // The baseline: a bare axum handler returning the very same bytes for each path and query.
    let canned: Arc<HashMap<String, String>> = Arc::new(bodies.iter().map(|(k, v)| (k.to_string(), v.clone())).collect());
    let baseline = axum::Router::new().fallback(move |uri: axum::http::Uri| {
        let canned = canned.clone();
        async move {
            let key = uri.path_and_query().map(|p| p.as_str().to_string()).unwrap_or_default();
            ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], canned.get(&key).cloned().unwrap_or_default()).into_response()
        }
    });
    let base_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_addr = base_listener.local_addr().unwrap();
    let base_listener = app::ssr::no_delay(base_listener);
    tokio::spawn(async move { axum::serve(base_listener, baseline).await.unwrap() });

    println!(
        "SSR against a bare axum handler returning the same bytes ({CONNECTIONS} connections, {}s each, loopback, same process); p99 also at {BUSY_CONNECTIONS} connections",
        duration().as_secs()
    );
    println!("{:<58} {:>8} {:>10} {:>8} {:>9} {:>9} {:>9} {:>12}", "page", "bytes", "SSR req/s", "ratio", "base r/s", "SSR p50", "SSR p95", "p99 @64");
    for (path, cookie, rendered) in &paths {
        let server = if *rendered { render_addr } else { addr };
        let base = load(&client, &format!("http://{base_addr}{path}"), cookie, CONNECTIONS).await;
        let ssr = load(&client, &format!("http://{server}{path}"), cookie, CONNECTIONS).await;
        let busy = load(&client, &format!("http://{server}{path}"), cookie, BUSY_CONNECTIONS).await;
        let label = match (*cookie == &member_cookie, *rendered) {
            (true, _) => format!("{path} (member)"),
            (false, true) => format!("{path} (rendered)"),
            (false, false) => path.to_string(),
        };
        println!(
            "{:<58} {:>8} {:>10.0} {:>7.1}% {:>9.0} {:>7.2}ms {:>7.2}ms {:>10.2}ms",
            label,
            bodies[path].len(),
            ssr.rps,
            100.0 * ssr.rps / base.rps,
            base.rps,
            ssr.p50_ms,
            ssr.p95_ms,
            busy.p99_ms
        );
    }
}

/// Signs up a member with basics, 40 likes received and as many notifications; returns the session.
async fn bench_member(state: &server::AppState) -> String {
    use domain::account::{SignupForm, Tracking};
    use domain::profile::{BasicsForm, LocationForm};
    let site = state.sites.for_host(Some("localhost")).expect("default site");
    let form = SignupForm {
        email: "bench@example.nl".into(),
        name: "Bench".into(),
        password: "rode kater op het dak".into(),
        date_of_birth: "1990-05-17".into(),
        signup_message: String::new(),
    };
    let request = server::accounts::SignupRequest {
        site: &site.settings,
        form,
        tracking: Tracking::default(),
        locale: domain::Locale::Nl,
        base_url: "http://localhost".into(),
        client: Default::default(),
        invitation: None,
    };
    let (id, session) = state.accounts.signup(request).await.expect("signup");
    let basics = BasicsForm {
        gender: "male".into(),
        sexuality: "hetero".into(),
        location: LocationForm { country: "NL".into(), region: "NL-NH".into(), city: "Haarlem".into() },
    };
    state.members.save_basics(&site.settings, id, &basics).await.expect("basics");
    let now = server::seed::now_unix();
    let today = domain::account::Ymd::from_unix(now);
    // Auto-likes by a policy that gives many at once stand in for 40 likes from operator profiles.
    let mut bench_site = (*site).clone();
    bench_site.settings.auto_like = domain::notifications::AutoLikePolicy { count: 40, gap_secs: 0 };
    let member = state.accounts.member(id).await.expect("member").expect("exists");
    for _ in 0..40 {
        state.likes.auto_like(&bench_site, &member, now, today).await.expect("auto-like");
    }
    session
}

/// The search query alone, as the server runs it for `/members`: 2,000 searches over a mix of
/// filters, one at a time, against one member lookup by primary key on the same pool (baseline).
async fn search_server_time(state: &server::AppState) {
    use domain::profile::Gender;
    use domain::search::SearchFilters;
    let site = state.sites.for_host(Some("localhost")).expect("default site");
    let today = domain::account::Ymd::from_unix(server::seed::now_unix());
    let regions = state.members.regions_for(&site.settings);
    let mut rng = server::members::avatars::Rng::new(42);
    let mut times = Vec::new();
    for _ in 0..2000 {
        let country = ["NL", "BE"][rng.below(2) as usize].to_string();
        let in_country: Vec<_> = regions.iter().filter(|r| r.country == country).collect();
        let min_age = 18 + rng.below(40) as u32;
        let filters = SearchFilters {
            gender: [None, Some(Gender::Female), Some(Gender::Male)][rng.below(3) as usize],
            country: (rng.below(3) > 0).then(|| country.clone()),
            region: (rng.below(2) == 0).then(|| in_country[rng.below(in_country.len() as u64) as usize].code.clone()),
            min_age,
            max_age: (min_age + 5 + rng.below(30) as u32).min(99),
            page: 1 + rng.below(5) as u32,
        };
        let start = Instant::now();
        let results = state.members.search(&site.settings, Some(0), &filters, today).await.expect("search");
        times.push(start.elapsed());
        std::hint::black_box(results);
    }
    let mut base = Vec::new();
    for _ in 0..2000 {
        let start = Instant::now();
        std::hint::black_box(state.accounts.member(1).await.expect("lookup"));
        base.push(start.elapsed());
    }
    times.sort();
    base.sort();
    let ms = |v: &Vec<Duration>, p: f64| v[((v.len() as f64 * p) as usize).min(v.len() - 1)].as_secs_f64() * 1000.0;
    println!(
        "search query, 2000 mixed filters: p50 {:.2}ms p95 {:.2}ms max {:.2}ms (baseline member by id: p50 {:.3}ms, p95 {:.3}ms; p95 ratio {:.0}x); budget p95 <= 30ms",
        ms(&times, 0.5),
        ms(&times, 0.95),
        ms(&times, 1.0),
        ms(&base, 0.5),
        ms(&base, 0.95),
        ms(&times, 0.95) / ms(&base, 0.95)
    );
}
