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

/// The `vonk` command line: serving is the default; the other commands look after a site's data
/// from a shell or a cron job. Each reads only the configuration it uses (see
/// docs/configuration.md): the data commands need no payment provider.
#[cfg(feature = "ssr")]
#[derive(Debug, clap::Parser)]
#[command(name = "vonk", version, about = "Vonk, the dating and chat site: serves it (the default) and looks after its data.")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[cfg(feature = "ssr")]
#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Serve the site (what `vonk` without a command does).
    Serve,
    /// Print a new key pair for web push (VONK_VAPID_PRIVATE_KEY).
    VapidKeys,
    /// Grant or take back the staff role (the staff pages) or the operator role (`/staff/chats`).
    Staff {
        #[command(subcommand)]
        change: StaffChange,
    },
    /// What a provider or a bank did to a payment (the test provider's dashboard, a reversed
    /// direct debit).
    Payments {
        #[command(subcommand)]
        event: PaymentEvent,
    },
    /// Back up the database (SQLite) and the local media into a new folder while the site serves.
    Backup {
        /// The new folder (it must not exist yet).
        folder: std::path::PathBuf,
    },
    /// Restore a checked backup into the empty or missing data directory (DATA_DIR).
    Restore {
        /// The backup's folder.
        folder: std::path::PathBuf,
    },
    /// Reconcile the ledger, compare photo rows with files, and look at the data directory's
    /// links and modes. Exit status 1 when something is listed.
    Check,
    /// Read one returned mail from standard input (a delivery status notification or an abuse
    /// report, as the bounce mailbox's mail server hands it over) and switch notification mail
    /// off for the addresses it names.
    MailReport,
    /// Print the difference hash of each picture, one line each, as a list of known photos
    /// (VONK_PHOTO_HASHES) takes it: a chat photo that matches one waits for staff, hidden.
    PhotoHash {
        /// The pictures (JPEG, PNG, WebP).
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
    },
}

#[cfg(feature = "ssr")]
#[derive(Debug, clap::Subcommand)]
enum StaffChange {
    /// Grant the role to every account with this address (staff and operators leave the search).
    Grant {
        email: String,
        #[arg(value_enum, default_value_t = Role::Admin)]
        role: Role,
    },
    /// Take the role back.
    Revoke {
        email: String,
        #[arg(value_enum, default_value_t = Role::Admin)]
        role: Role,
    },
}

#[cfg(feature = "ssr")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Role {
    /// Settings, prices, staff roles, the staff log (`staff`: the same).
    #[value(alias = "staff")]
    Admin,
    /// Members' questions: members, complaints, payments.
    Support,
    /// Photos, complaints, held messages.
    Moderator,
    /// Payments, refunds, prices.
    Finance,
    /// Answers as fictional profiles.
    Operator,
}

#[cfg(feature = "ssr")]
impl From<Role> for domain::staff::StaffRole {
    fn from(role: Role) -> Self {
        match role {
            Role::Admin => domain::staff::StaffRole::Admin,
            Role::Support => domain::staff::StaffRole::Support,
            Role::Moderator => domain::staff::StaffRole::Moderator,
            Role::Finance => domain::staff::StaffRole::Finance,
            Role::Operator => domain::staff::StaffRole::Operator,
        }
    }
}

#[cfg(feature = "ssr")]
#[derive(Debug, clap::Subcommand)]
enum PaymentEvent {
    /// The bank reversed a direct debit: the credits go as far as they are left.
    Reverse { payment: i64 },
    /// The test provider: the member's bank took the money back.
    Chargeback { payment: i64 },
    /// The test provider: a refund made in its dashboard.
    ProviderRefund { payment: i64, cents: i64 },
    /// The test provider: a direct debit collected, or not.
    Collect {
        payment: i64,
        #[arg(value_enum)]
        outcome: Collected,
    },
}

#[cfg(feature = "ssr")]
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Collected {
    Paid,
    Failed,
}

/// Reads the configuration a command needs, or ends the process with the reason (exit 2).
#[cfg(feature = "ssr")]
fn config(payments: bool) -> server::Config {
    let read = if payments { server::Config::from_env() } else { server::Config::from_env_without_payments() };
    read.unwrap_or_else(|error| {
        eprintln!("configuration error: {error}");
        std::process::exit(2);
    })
}

/// Ends the process with exit status 1 after saying what failed.
#[cfg(feature = "ssr")]
fn failed(message: String) -> ! {
    eprintln!("{message}");
    std::process::exit(1);
}

#[cfg(feature = "ssr")]
async fn run() {
    use clap::Parser;
    use tracing_subscriber::EnvFilter;
    // Everything this process creates (database, media, outboxes, backups) is its owner's alone.
    server::files::private_umask();
    // Usage errors (an unknown command or argument) exit with status 2 and the usage.
    let cli = Cli::parse();
    tracing_subscriber::fmt().with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"))).init();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => {
            let config = config(true);
            tracing::info!(?config, "starting");
            if let Err(error) = app::ssr::serve(config).await {
                failed(format!("Vonk stopped: {error}"));
            }
        }
        Command::VapidKeys => {
            let (private_key, public_key) = server::push::new_vapid_keys();
            println!("VONK_VAPID_PRIVATE_KEY={private_key}\n# public key (browsers subscribe with it): {public_key}");
        }
        Command::Staff { change } => {
            let (grant, email, role) = match change {
                StaffChange::Grant { email, role } => (true, email, role),
                StaffChange::Revoke { email, role } => (false, email, role),
            };
            let role = domain::staff::StaffRole::from(role);
            match app::ssr::set_staff(config(false), &email, grant, role).await {
                Ok(0) => failed(format!("no account with the address {email}")),
                Ok(n) => println!("{} role {} {n} account(s) of {email}", role.as_str(), if grant { "granted to" } else { "taken from" }),
                Err(error) => failed(format!("failed: {error}")),
            }
        }
        Command::Payments { event } => {
            use server::payments::refunds::TestChange;
            let config = config(true);
            let (id, done) = match event {
                PaymentEvent::Reverse { payment } => (payment, app::ssr::reverse_direct_debit(config, payment).await),
                PaymentEvent::Chargeback { payment } => (payment, app::ssr::test_provider_event(config, payment, TestChange::Chargeback).await),
                PaymentEvent::ProviderRefund { payment, cents } => (payment, app::ssr::test_provider_event(config, payment, TestChange::Refund(cents)).await),
                PaymentEvent::Collect { payment, outcome } => {
                    (payment, app::ssr::test_provider_event(config, payment, TestChange::Collected(outcome == Collected::Paid)).await)
                }
            };
            match done {
                Ok(status) => println!("payment {id}: {}", status.code()),
                Err(error) => failed(format!("failed: {error}")),
            }
        }
        Command::Backup { folder } => {
            let config = config(false);
            let postgres = !config.database_url.starts_with("sqlite:");
            match app::ssr::backup(config, &folder).await {
                Ok(manifest) => {
                    let rows: i64 = manifest.tables.values().sum();
                    println!(
                        "backup in {}: schema {}, {} tables, {rows} rows, {} files",
                        folder.display(),
                        manifest.schema_version,
                        manifest.tables.len(),
                        manifest.files.len()
                    );
                    if postgres {
                        println!("The database is on PostgreSQL and is not in this backup (it holds the media files): back it up with pg_dump or your point-in-time recovery; see docs/backups.md.");
                    }
                }
                Err(error) => failed(format!("backup failed: {error}")),
            }
        }
        Command::Restore { folder } => {
            let config = config(false);
            match app::ssr::restore(&config, &folder).await {
                Ok(manifest) => println!(
                    "restored the backup of {} into {} (schema {}); run `vonk check` next",
                    domain::date::from_unix(manifest.created_at),
                    config.data_dir.display(),
                    manifest.schema_version
                ),
                Err(error) => failed(format!("restore refused: {error}")),
            }
        }
        Command::Check => {
            let config = config(false);
            let data_dir = config.data_dir.clone();
            let report = app::ssr::check(config).await.unwrap_or_else(|error| {
                eprintln!("check failed: {error}");
                std::process::exit(2);
            });
            for line in app::ssr::cli::check_lines(&report, &data_dir) {
                println!("{line}");
            }
            if !report.is_clean() {
                std::process::exit(1);
            }
            println!("ok: the ledger explains every balance, every photo has its file, only the site reads the data directory");
        }
        Command::MailReport => {
            use std::io::Read;
            // A returned mail holds the original's headers at most: a few megabytes is plenty.
            let mut message = Vec::new();
            if let Err(error) = std::io::stdin().take(10 << 20).read_to_end(&mut message) {
                failed(format!("cannot read the mail: {error}"));
            }
            match app::ssr::cli::mail_report(config(false), &String::from_utf8_lossy(&message)).await {
                Ok(found) if found.is_empty() => println!("not a hard bounce or a complaint: nothing changed"),
                Ok(found) => {
                    for (address, reason, accounts) in found {
                        println!("{address}: {reason}, {accounts} account(s)");
                    }
                }
                Err(error) => failed(format!("failed: {error}")),
            }
        }
        Command::PhotoHash { files } => {
            for file in files {
                let hash = std::fs::read(&file)
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| server::members::photo_decode::upload_hash(&bytes, usize::MAX).map_err(|e| format!("{e:?}")));
                match hash {
                    Ok(hash) => println!("{hash:016x}  # {}", file.display()),
                    Err(error) => failed(format!("{}: {error}", file.display())),
                }
            }
        }
    }
}

#[cfg(not(feature = "ssr"))]
fn main() {}
