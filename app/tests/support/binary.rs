//! Tests that run the real `vonk` binary in its own process, against a database they prepare
//! through the services first.

use std::collections::HashMap;
use std::process::{Child, Command, Stdio};

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The directory, address and demo size for a server on a free loopback port, plus `extra`.
pub fn vars(dir: &std::path::Path, port: u16, extra: &[(&'static str, String)]) -> HashMap<&'static str, String> {
    let mut vars: HashMap<&'static str, String> = [
        ("DATA_DIR", dir.display().to_string()),
        ("VONK_ADDR", format!("127.0.0.1:{port}")),
        ("VONK_PUBLIC_URL", format!("http://127.0.0.1:{port}")),
        ("VONK_DEMO_MEMBERS", "0".to_string()),
        ("VONK_PAYMENTS", "test".to_string()),
    ]
    .into_iter()
    .collect();
    vars.extend(extra.iter().cloned());
    vars
}

/// Starts the binary with only these variables (and PATH); `log` is its `RUST_LOG`. Returns once
/// it listens: the server prints "Vonk listens on …" when its listener is bound, and this waits
/// for that line (up to 60 s) rather than trying the port. Its later output is read and dropped.
pub fn spawn(vars: &HashMap<&str, String>, extra: &[(&str, &str)], log: &str, stderr: Stdio) -> Server {
    use std::io::BufRead;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_vonk"));
    cmd.env_clear().env("PATH", std::env::var("PATH").unwrap_or_default()).env("RUST_LOG", log);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let mut child = cmd.stdout(Stdio::piped()).stderr(stderr).spawn().expect("the vonk binary starts");
    let stdout = child.stdout.take().expect("stdout is piped");
    let (ready, listening) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.starts_with("Vonk listens on ") {
                let _ = ready.send(());
            }
        }
    });
    if listening.recv_timeout(std::time::Duration::from_secs(60)).is_err() {
        let _ = child.kill();
        let status = child.wait().ok();
        panic!("the server did not say it listens within 60 s (exit: {status:?})");
    }
    Server(Some(child))
}

/// A server this test started: stopped when dropped, so a failing test leaves no process
/// behind (a test that stops it itself, with `kill` and `wait`, is not disturbed).
pub struct Server(Option<Child>);

impl Server {
    /// The process, for a caller that stops it in its own way.
    #[allow(dead_code)] // load_balanced only
    pub fn into_child(mut self) -> Child {
        self.0.take().expect("a started server")
    }
}

impl std::ops::Deref for Server {
    type Target = Child;
    fn deref(&self) -> &Child {
        self.0.as_ref().expect("a started server")
    }
}

impl std::ops::DerefMut for Server {
    fn deref_mut(&mut self) -> &mut Child {
        self.0.as_mut().expect("a started server")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The database the binary will open, with its demo content, through the services.
pub async fn state(vars: &HashMap<&str, String>) -> server::AppState {
    let config = server::Config::from_lookup(|k| vars.get(k).cloned()).unwrap();
    server::AppState::start(config, app::ssr::page_links()).await.unwrap()
}

/// Anna (anna@example.nl, password "rode kater op het dak") on the default site; her id.
pub async fn signup_anna(state: &server::AppState, base_url: &str) -> i64 {
    let site = state.sites.for_host(None).unwrap();
    let form = domain::account::SignupForm {
        email: "anna@example.nl".into(),
        name: "Anna".into(),
        password: "rode kater op het dak".into(),
        date_of_birth: "1990-05-17".into(),
        signup_message: String::new(),
    };
    let (anna, _) = state
        .accounts
        .signup(server::accounts::SignupRequest {
            site: &site,
            form,
            tracking: Default::default(),
            locale: domain::Locale::Nl,
            base_url: base_url.into(),
            client: Default::default(),
            invitation: None,
        })
        .await
        .unwrap();
    anna
}
