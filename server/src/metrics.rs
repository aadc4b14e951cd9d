//! Prometheus metrics (`GET /metrics` with the operator's token): requests by route and status
//! with a latency histogram, open chat sockets, messages sent, payments by status and the
//! database pool. One recorder per process (`metrics` keeps it globally); every node serves its
//! own figures and Prometheus adds them up.

use std::sync::OnceLock;
use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::middleware::Next;
use axum::response::Response;
use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

/// Seconds; from a static file (~0.1 ms) to a slow search (~1 s).
const LATENCY_BUCKETS: [f64; 12] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5];

pub const REQUESTS: &str = "vonk_http_requests_total";
pub const LATENCY: &str = "vonk_http_request_duration_seconds";
pub const SOCKETS: &str = "vonk_chat_sockets_open";
pub const MESSAGES: &str = "vonk_chat_messages_sent_total";
pub const PAYMENTS: &str = "vonk_payments_total";
pub const POOL: &str = "vonk_db_pool_connections";
pub const BACKUP_SUCCESS: &str = "vonk_backup_last_success_timestamp_seconds";
pub const BACKUP_FAILURES: &str = "vonk_backup_failures_total";

static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();

/// The process's recorder, installed on first use. When another recorder was installed first
/// (a test binary with several apps), the figures still render from this one's handle, empty.
pub fn handle() -> &'static PrometheusHandle {
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(metrics_exporter_prometheus::Matcher::Full(LATENCY.to_string()), &LATENCY_BUCKETS)
            .expect("latency buckets are not empty")
            .build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("a metrics recorder was already installed");
        }
        describe();
        handle
    })
}

fn describe() {
    metrics::describe_counter!(REQUESTS, "HTTP requests answered, by route and status");
    metrics::describe_histogram!(LATENCY, metrics::Unit::Seconds, "Time until the answer's head, by route");
    metrics::describe_gauge!(SOCKETS, "Chat sockets open on this node");
    metrics::describe_counter!(MESSAGES, "Chat messages stored (new sends, not repeats), by how: in one database call or statement by statement");
    metrics::describe_counter!(PAYMENTS, "Payment status changes, by the status reached");
    metrics::describe_gauge!(BACKUP_SUCCESS, "Unix time of the newest successful scheduled backup");
    metrics::describe_counter!(BACKUP_FAILURES, "Scheduled backups that failed");
    metrics::describe_gauge!(POOL, "Database pool connections, by state (idle, in_use)");
}

/// The figures in Prometheus's text format, with the pool read now.
pub fn render(db: &crate::Db) -> String {
    let handle = handle();
    let size = db.pool().size();
    let idle = db.pool().num_idle() as u32;
    metrics::gauge!(POOL, "state" => "idle").set(f64::from(idle));
    metrics::gauge!(POOL, "state" => "in_use").set(f64::from(size.saturating_sub(idle)));
    handle.run_upkeep();
    handle.render()
}

/// Middleware: counts each answer by its route pattern (`/members/{id}`, `/api/fn/like`; never
/// the raw path, so the label set stays small) and status, and times it until its head.
pub async fn track(request: Request, next: Next) -> Response {
    let route = match request.extensions().get::<MatchedPath>() {
        Some(path) => path.as_str().to_string(),
        None => "unmatched".to_string(),
    };
    let method = request.method().clone();
    let started = Instant::now();
    let response = next.run(request).await;
    let status = response.status().as_u16().to_string();
    metrics::counter!(REQUESTS, "method" => method.as_str().to_string(), "route" => route.clone(), "status" => status).increment(1);
    metrics::histogram!(LATENCY, "route" => route).record(started.elapsed().as_secs_f64());
    response
}

/// Counts an open chat socket for as long as it lives.
pub struct SocketGauge;

impl SocketGauge {
    pub fn open() -> SocketGauge {
        metrics::gauge!(SOCKETS).increment(1.0);
        SocketGauge
    }
}

impl Drop for SocketGauge {
    fn drop(&mut self) {
        metrics::gauge!(SOCKETS).decrement(1.0);
    }
}

/// A chat message stored: on PostgreSQL in one call (`one_call`), else statement by statement.
pub fn message_sent(one_call: bool) {
    metrics::counter!(MESSAGES, "stored" => if one_call { "one_call" } else { "statements" }).increment(1);
}

/// A payment reached `status`.
/// A scheduled backup ended: successes set the time of the newest, failures are counted.
pub fn backup(ok: bool, now: i64) {
    if ok {
        metrics::gauge!(BACKUP_SUCCESS).set(now as f64);
    } else {
        metrics::counter!(BACKUP_FAILURES).increment(1);
    }
}

pub fn payment(status: &'static str) {
    metrics::counter!(PAYMENTS, "status" => status).increment(1);
}
