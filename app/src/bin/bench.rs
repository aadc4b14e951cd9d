//! `make bench`: server-side rendering speed as a ratio against a bare axum handler that returns
//! the same bytes, measured in one run over loopback on this machine.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;

const CONNECTIONS: usize = 16;
const WARMUP: Duration = Duration::from_secs(1);
const DURATION: Duration = Duration::from_secs(5);

struct Figures {
    rps: f64,
    p50_ms: f64,
    p95_ms: f64,
}

async fn load(client: &reqwest::Client, url: &str) -> Figures {
    // Warm up connections and caches first.
    run(client, url, WARMUP).await;
    run(client, url, DURATION).await
}

async fn run(client: &reqwest::Client, url: &str, duration: Duration) -> Figures {
    let count = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + duration;
    let mut tasks = Vec::new();
    for _ in 0..CONNECTIONS {
        let client = client.clone();
        let url = url.to_string();
        let count = count.clone();
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            while Instant::now() < deadline {
                let start = Instant::now();
                let res = client.get(&url).header("cookie", "entry_accepted=1").send().await.expect("request");
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
    Figures { rps: count.load(Ordering::Relaxed) as f64 / duration.as_secs_f64(), p50_ms: pct(0.50), p95_ms: pct(0.95) }
}

#[tokio::main]
async fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let vars: HashMap<&str, String> = [("VONK_ADDR", "127.0.0.1:0".to_string()), ("DATA_DIR", dir.path().display().to_string())].into_iter().collect();
    let config = server::Config::from_lookup(|k| vars.get(k).cloned()).expect("config");
    let state = server::AppState::start(config).await.expect("start");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = app::ssr::router(state, app::ssr::leptos_options(addr));
    let listener = app::ssr::no_delay(listener);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let client = reqwest::Client::builder().pool_max_idle_per_host(CONNECTIONS).build().unwrap();
    let paths = ["/", "/pricing"];
    let mut bodies = HashMap::new();
    for path in paths {
        let body = client.get(format!("http://{addr}{path}")).header("cookie", "entry_accepted=1").send().await.unwrap().text().await.unwrap();
        bodies.insert(path, body);
    }

    // The baseline: a bare axum handler returning the very same bytes.
    let mut baseline = axum::Router::new();
    for (path, body) in &bodies {
        let body: &'static str = Box::leak(body.clone().into_boxed_str());
        baseline = baseline.route(path, get(move || async move { ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response() }));
    }
    let base_listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base_addr = base_listener.local_addr().unwrap();
    let base_listener = app::ssr::no_delay(base_listener);
    tokio::spawn(async move { axum::serve(base_listener, baseline).await.unwrap() });

    println!("SSR against a bare axum handler returning the same bytes ({CONNECTIONS} connections, {}s each, loopback, same process)", DURATION.as_secs());
    println!("{:<10} {:>10} {:>12} {:>8} {:>9} {:>9} {:>9}", "page", "bytes", "SSR req/s", "ratio", "base r/s", "SSR p50", "SSR p95");
    for path in paths {
        let base = load(&client, &format!("http://{base_addr}{path}")).await;
        let ssr = load(&client, &format!("http://{addr}{path}")).await;
        println!(
            "{:<10} {:>10} {:>12.0} {:>7.1}% {:>9.0} {:>7.2}ms {:>7.2}ms",
            path,
            bodies[path].len(),
            ssr.rps,
            100.0 * ssr.rps / base.rps,
            base.rps,
            ssr.p50_ms,
            ssr.p95_ms
        );
    }
}
