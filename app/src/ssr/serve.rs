//! Serving: start the application state, listen, accept connections with a header timeout, and
//! stop gracefully.

use std::time::Duration;

use axum::Router;
use server::{AppError, AppState};

use super::page_context::page_links;
use super::router::{leptos_options, router};

/// Starts the app: connect, migrate, seed, cache, serve until Ctrl-C / SIGTERM.
pub async fn serve(config: server::Config) -> Result<(), AppError> {
    let addr = config.addr;
    let refresh = config.site_cache_refresh;
    // What an older version or another tool left readable to others becomes the site's alone
    // (the process's umask, set in main, covers everything created from now on).
    server::files::tighten_at_start(&config.data_dir, "data directory");
    if let Some(schedule) = &config.backup {
        server::files::tighten_at_start(&schedule.dir, "backup folder");
    }
    let state = AppState::start(config, page_links()).await?;
    if state.config.seed == server::config::SeedMode::Demo {
        if let Some(password) = server::seed::demo_accounts(&state).await? {
            println!("Demo accounts on the demo site (this database only; the password is not shown again):");
            for account in server::seed::DEMO_ACCOUNTS {
                println!("  {:<24} {}", account.email, account.role);
            }
            println!("  password: {password}");
        }
    }
    let _refresh = state.sites.spawn_refresh(refresh.max(Duration::from_secs(1)));
    let _listen = state.sites.spawn_listen(&state.config.database_url);
    let _housekeeping = state.spawn_housekeeping();
    let _backups = state
        .config
        .backup
        .clone()
        .map(|schedule| server::backup::spawn_schedule(state.db.clone(), state.config.local_media_dir(), schedule, state.clock.clone()));
    // Missed webhooks, payments left open by a process that died, receipts: every minute, on
    // one node, from the job queue.
    state.payments.schedule_recovery(&state.jobs, Duration::from_secs(60), state.clock.now()).await?;
    // The job queue: lifecycle messages and the other work that happens later (server::jobs).
    let _jobs = state.jobs.spawn_runner(Duration::from_secs(15));
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| AppError::Internal(format!("cannot listen on {addr}: {e}")))?;
    let local = listener.local_addr().map_err(|e| AppError::Internal(e.to_string()))?;
    let app = router(state.clone(), leptos_options(local));
    tracing::info!("Vonk listens on http://{local}");
    println!("Vonk listens on http://{local}");
    // Chat sockets live outside the connections' graceful shutdown: once the node has stopped
    // accepting, they close with 1001 and their clients reconnect, through the load balancer, to
    // another node.
    let bus = state.chat.bus().clone();
    serve_connections_then(listener, app, state.config.header_timeout, shutdown_signal(), async move {
        server::http::dev_reload::stop();
        bus.close(Duration::from_secs(3)).await
    })
    .await;
    state.db.close().await;
    Ok(())
}

/// Serves HTTP/1.1 on `listener` until `shutdown`, then lets open requests finish. Unlike
/// `axum::serve` it limits how long a client may take to send its headers (a slow-loris client
/// is disconnected), sets TCP_NODELAY, and gives handlers the peer's address (`ConnectInfo`).
pub async fn serve_connections(
    listener: tokio::net::TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) {
    serve_connections_then(listener, app, header_timeout, shutdown, async {}).await
}

/// [`serve_connections`], running `stopped` as soon as the listener is closed (new connections
/// are refused from then on), while the open requests finish.
pub async fn serve_connections_then(
    listener: tokio::net::TcpListener,
    app: Router,
    header_timeout: Duration,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    stopped: impl std::future::Future<Output = ()> + Send + 'static,
) {
    use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
    use hyper_util::server::conn::auto::Builder;
    use hyper_util::service::TowerToHyperService;
    use tower::ServiceExt;
    // HTTP/1.1 only (TLS and HTTP/2 end at the load balancer): no protocol sniffing.
    let mut builder = Builder::new(TokioExecutor::new()).http1_only();
    builder.http1().timer(TokioTimer::new()).header_read_timeout(header_timeout);
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(());
    let (done_tx, done_rx) = tokio::sync::watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (tcp, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(connection) => connection,
                // Out of file descriptors and the like: wait a moment rather than spin.
                Err(error) => {
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
        let service = app.clone().map_request(move |mut request: axum::extract::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(axum::extract::ConnectInfo(remote));
            request
        });
        let (builder, mut stop, done) = (builder.clone(), stop_rx.clone(), done_rx.clone());
        tokio::spawn(async move {
            // With upgrades: the chat's WebSocket.
            let connection = builder.serve_connection_with_upgrades(TokioIo::new(tcp), TowerToHyperService::new(service));
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stop.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(done);
        });
    }
    drop(listener);
    drop(stop_rx);
    let _ = stop_tx.send(());
    drop(done_rx);
    // Every connection task holds a receiver: wait until the last one finished.
    tokio::join!(stopped, done_tx.closed());
}

/// Pages stream in several chunks; without TCP_NODELAY, Nagle's algorithm and delayed ACKs
/// hold the later chunks back by ~40 ms.
pub fn no_delay(listener: tokio::net::TcpListener) -> axum::serve::TapIo<tokio::net::TcpListener, fn(&mut tokio::net::TcpStream)> {
    use axum::serve::ListenerExt;
    fn set(tcp: &mut tokio::net::TcpStream) {
        if let Err(error) = tcp.set_nodelay(true) {
            tracing::debug!(%error, "could not set TCP_NODELAY");
        }
    }
    listener.tap_io(set as fn(&mut tokio::net::TcpStream))
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        if let Ok(mut sig) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            sig.recv().await;
        }
    };
    tokio::select! { _ = ctrl_c => {}, _ = terminate => {} }
}
