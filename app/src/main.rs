//! The Vonk server binary. Configuration comes from environment variables (see the README).

/// mimalloc: per-thread free lists suit a server that allocates and frees many small
/// strings per request on every worker thread (a third of the CPU was malloc/free with glibc's).
#[cfg(feature = "ssr")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(feature = "ssr")]
fn main() {
    // Server rendering walks deep view trees; 8 MiB per worker leaves a wide margin (the
    // memory is reserved, not used, until a render needs it).
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().thread_stack_size(8 << 20).build().expect("the async runtime");
    runtime.block_on(run());
}

#[cfg(feature = "ssr")]
async fn run() {
    use tracing_subscriber::EnvFilter;
    // Everything this process creates (database, media, outboxes, backups) is its owner's alone.
    server::files::private_umask();
    // `vonk vapid-keys`: a new key pair for web push (see the README).
    if std::env::args().nth(1).as_deref() == Some("vapid-keys") {
        let (private_key, public_key) = server::push::new_vapid_keys();
        println!("VONK_VAPID_PRIVATE_KEY={private_key}\n# public key (browsers subscribe with it): {public_key}");
        return;
    }
    tracing_subscriber::fmt().with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"))).init();
    let config = match server::Config::from_env() {
        Ok(config) => config,
        Err(error) => {
            eprintln!("configuration error: {error}");
            std::process::exit(2);
        }
    };
    // `vonk staff grant|revoke <email> [operator]`: the staff role opens the photo review page;
    // the operator role the operator console (`/staff/chats`).
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("staff") {
        let (grant, email) = match (args.get(1).map(String::as_str), args.get(2)) {
            (Some("grant"), Some(email)) => (true, email),
            (Some("revoke"), Some(email)) => (false, email),
            _ => {
                eprintln!("usage: vonk staff grant|revoke <email> [operator]");
                std::process::exit(2);
            }
        };
        let operator = match args.get(3).map(String::as_str) {
            None | Some("staff") => false,
            Some("operator") => true,
            Some(other) => {
                eprintln!("unknown role {other}: staff or operator");
                std::process::exit(2);
            }
        };
        match app::ssr::set_staff(config, email, grant, operator).await {
            Ok(0) => {
                eprintln!("no account with the address {email}");
                std::process::exit(1);
            }
            Ok(n) => {
                println!("{} role {} {n} account(s) of {email}", if operator { "operator" } else { "staff" }, if grant { "granted to" } else { "taken from" })
            }
            Err(error) => {
                eprintln!("failed: {error}");
                std::process::exit(1);
            }
        }
        return;
    }
    // `vonk payments reverse <payment id>`: the bank reversed a direct debit. With the test
    // provider, `provider-refund <payment id> <cents>`, `chargeback <payment id>` and
    // `collect <payment id> paid|failed` play its dashboard and the member's bank.
    if args.first().map(String::as_str) == Some("payments") {
        use server::payments::refunds::TestChange;
        let number = |i: usize| args.get(i).and_then(|v| v.parse::<i64>().ok());
        let done = match (args.get(1).map(String::as_str), number(2), args.get(3).map(String::as_str)) {
            (Some("reverse"), Some(id), None) => app::ssr::reverse_direct_debit(config, id).await.map(|s| (id, s)),
            (Some("chargeback"), Some(id), None) => app::ssr::test_provider_event(config, id, TestChange::Chargeback).await.map(|s| (id, s)),
            (Some("provider-refund"), Some(id), Some(cents)) if cents.parse::<i64>().is_ok() => {
                app::ssr::test_provider_event(config, id, TestChange::Refund(cents.parse().unwrap_or(0))).await.map(|s| (id, s))
            }
            (Some("collect"), Some(id), Some(outcome @ ("paid" | "failed"))) => {
                app::ssr::test_provider_event(config, id, TestChange::Collected(outcome == "paid")).await.map(|s| (id, s))
            }
            _ => {
                eprintln!("usage: vonk payments reverse <payment id> | chargeback <payment id> | provider-refund <payment id> <cents> | collect <payment id> paid|failed");
                std::process::exit(2);
            }
        };
        match done {
            Ok((id, status)) => println!("payment {id}: {}", status.code()),
            Err(error) => {
                eprintln!("failed: {error}");
                std::process::exit(1);
            }
        }
        return;
    }
    // `vonk backup <dir>`, `vonk restore <dir>`, `vonk check` (docs/backups.md).
    match (args.first().map(String::as_str), args.get(1)) {
        (Some("backup"), Some(dir)) => {
            let postgres = !config.database_url.starts_with("sqlite:");
            match app::ssr::backup(config, std::path::Path::new(dir)).await {
                Ok(manifest) => {
                    let rows: i64 = manifest.tables.values().sum();
                    println!(
                        "backup in {dir}: schema {}, {} tables, {rows} rows, {} files",
                        manifest.schema_version,
                        manifest.tables.len(),
                        manifest.files.len()
                    );
                    if postgres {
                        println!("The database is on PostgreSQL and is not in this backup (it holds the media files): back it up with pg_dump or your point-in-time recovery; see docs/backups.md.");
                    }
                }
                Err(error) => {
                    eprintln!("backup failed: {error}");
                    std::process::exit(1);
                }
            }
            return;
        }
        (Some("restore"), Some(dir)) => {
            match app::ssr::restore(&config, std::path::Path::new(dir)).await {
                Ok(manifest) => println!(
                    "restored the backup of {} into {} (schema {}); run `vonk check` next",
                    domain::date::from_unix(manifest.created_at),
                    config.data_dir.display(),
                    manifest.schema_version
                ),
                Err(error) => {
                    eprintln!("restore refused: {error}");
                    std::process::exit(1);
                }
            }
            return;
        }
        (Some("check"), None) => {
            let config_dir = config.data_dir.clone();
            match app::ssr::check(config).await {
                Ok(report) => {
                    for m in &report.unexplained_balances {
                        println!("ledger: member {} has {} credits, the ledger explains {}", m.user_id, m.credits, m.ledger_sum);
                    }
                    for key in &report.missing_files {
                        println!("missing file: {key}");
                    }
                    for key in &report.orphan_files {
                        println!("file no row names: {key}");
                    }
                    let data_dir = config_dir.display();
                    for (path, kind) in &report.data_dir.not_plain {
                        println!("data directory: {data_dir}/{path} is {kind}: move it away (the site serves only plain files)");
                    }
                    for (path, mode) in &report.data_dir.loose {
                        println!(
                            "data directory: {data_dir}/{path} has mode {mode:04o}: others may read it (chmod go-rwx, or start the site, which tightens it)"
                        );
                    }
                    if !report.is_clean() {
                        std::process::exit(1);
                    }
                    println!("ok: the ledger explains every balance, every photo has its file, only the site reads the data directory");
                }
                Err(error) => {
                    eprintln!("check failed: {error}");
                    std::process::exit(2);
                }
            }
            return;
        }
        (Some("backup" | "restore"), None) => {
            eprintln!("usage: vonk backup <new folder> | vonk restore <backup folder> | vonk check");
            std::process::exit(2);
        }
        _ => {}
    }
    tracing::info!(?config, "starting");
    if let Err(error) = app::ssr::serve(config).await {
        eprintln!("Vonk stopped: {error}");
        std::process::exit(1);
    }
}

#[cfg(not(feature = "ssr"))]
fn main() {}
