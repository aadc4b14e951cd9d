//! The Vonk server binary. Configuration comes from environment variables (see the README).

#[cfg(feature = "ssr")]
#[tokio::main]
async fn main() {
    use tracing_subscriber::EnvFilter;
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn")))
        .init();
    let config = match server::Config::from_env() {
        Ok(config) => config,
        Err(error) => {
            eprintln!("configuration error: {error}");
            std::process::exit(2);
        }
    };
    tracing::info!(?config, "starting");
    if let Err(error) = app::ssr::serve(config).await {
        eprintln!("Vonk stopped: {error}");
        std::process::exit(1);
    }
}

#[cfg(not(feature = "ssr"))]
fn main() {}
