//! Sixteen parallel uploads of a small PNG that claims 6000×6000 px (a "pixel bomb": under
//! 1 MB on the wire, 144 MB once decoded) against the real `vonk` binary in its own process:
//! the server keeps answering pages meanwhile, stores no more photos than the member may have,
//! and its peak resident memory stays under the budget the README states. `FLOOD_DECODES=16`
//! runs the same flood without the decode bound, for the README's comparison figure.
//! A second flood sends endless multipart bodies of small fields and of one endless file:
//! each is refused after a bounded read, and the server's memory hardly moves.

use std::process::Stdio;
use std::time::{Duration, Instant};

#[path = "support/binary.rs"]
mod binary;

/// Peak resident memory the server may reach during the flood (README, "Uploads").
const BUDGET_MIB: u64 = 900;

/// A figure from `/proc/{pid}/status` in MiB (`VmRSS` now, `VmHWM` the peak so far).
fn memory_mib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap_or_else(|| panic!("no {field}"));
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kib / 1024
}

/// 6000×6000 px with an alpha channel, one colour: compresses to almost nothing.
fn pixel_bomb() -> Vec<u8> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    use image::ImageEncoder;
    let picture = image::RgbaImage::from_pixel(6000, 6000, image::Rgba([200, 60, 90, 160]));
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Best, FilterType::NoFilter)
        .write_image(picture.as_raw(), 6000, 6000, image::ExtendedColorType::Rgba8)
        .unwrap();
    out
}

fn multipart(bytes: &[u8]) -> (String, Vec<u8>) {
    let boundary = "----vonk-flood-boundary-Q2x9".to_string();
    let mut body =
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"bomb.png\"\r\nContent-Type: image/png\r\n\r\n").into_bytes();
    body.extend_from_slice(bytes);
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    (boundary, body)
}

/// Waits until the server started at `base` answers, then logs Anna in; her session cookie.
async fn wait_and_log_in(client: &reqwest::Client, base: &str) -> String {
    let until = Instant::now() + Duration::from_secs(30);
    while client.get(format!("{base}/")).send().await.is_err() {
        assert!(Instant::now() < until, "the server did not start");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let res = client
        .post(format!("{base}/api/fn/login"))
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "text/html")
        .header("origin", base)
        .header("referer", format!("{base}/login"))
        .body("email=anna%40example.nl&password=rode+kater+op+het+dak")
        .send()
        .await
        .unwrap();
    res.headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("auth.session="))
        .expect("logged in")
        .split(';')
        .next()
        .unwrap()
        .to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sixteen_parallel_pixel_bombs_leave_the_server_answering_within_its_memory_budget() {
    let dir = tempfile::tempdir().unwrap();
    let port = binary::free_port();
    let base = format!("http://127.0.0.1:{port}");
    let vars = binary::vars(
        dir.path(),
        port,
        &[
            // As on a two-core machine, whatever runs the test.
            ("VONK_PHOTO_DECODES", std::env::var("FLOOD_DECODES").unwrap_or("2".into())),
            ("VONK_REQUEST_TIMEOUT_SECS", "300".to_string()),
        ],
    );

    // A member, made in the database the server will open.
    let state = binary::state(&vars).await;
    let anna = binary::signup_anna(&state, &base).await;

    let bomb = pixel_bomb();
    assert!(bomb.len() < 1 << 20, "the bomb is small on the wire: {} bytes", bomb.len());

    let mut server = binary::spawn(&vars, &[], "error", Stdio::null());
    let pid = server.id();
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .timeout(Duration::from_secs(280))
        .pool_idle_timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let cookie = wait_and_log_in(&client, &base).await;
    let idle = memory_mib(pid, "VmRSS:");

    let (boundary, body) = multipart(&bomb);
    let started = Instant::now();
    let uploads: Vec<_> = (0..16)
        .map(|_| {
            let req = client
                .post(format!("{base}/api/fn/upload_photo"))
                .header("content-type", format!("multipart/form-data; boundary={boundary}"))
                .header("accept", "application/json")
                .header("origin", &base)
                .header("cookie", &cookie)
                .body(body.clone());
            tokio::spawn(async move {
                let res = req.send().await.expect("every upload is answered");
                let status = res.status();
                (status, res.text().await.unwrap())
            })
        })
        .collect();

    // Meanwhile, pages keep coming.
    let mut slowest = Duration::ZERO;
    let mut probes = 0;
    while !uploads.iter().all(|u| u.is_finished()) {
        let asked = Instant::now();
        let res = client.get(format!("{base}/")).header("accept", "text/html").send().await.expect("the home page answers during the flood");
        assert!(res.status().is_success());
        res.bytes().await.unwrap();
        slowest = slowest.max(asked.elapsed());
        probes += 1;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let took = started.elapsed();
    let mut stored = 0;
    for upload in uploads {
        let (status, text) = upload.await.unwrap();
        if status.is_success() {
            stored += 1;
        } else {
            assert_eq!(text, r#"{"code":"photo_limit_reached"}"#, "{status}");
        }
    }
    let peak = memory_mib(pid, "VmHWM:");
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM photos WHERE user_id = $1").bind(anna).fetch_one(state.db.pool()).await.unwrap();
    // Full now: a further upload is refused before its body is read.
    let res = client
        .post(format!("{base}/api/fn/upload_photo"))
        .header("content-type", format!("multipart/form-data; boundary={boundary}"))
        .header("accept", "application/json")
        .header("origin", &base)
        .header("cookie", &cookie)
        .body(body.clone())
        .send()
        .await
        .unwrap();
    let refused = (res.status(), res.text().await.unwrap());
    server.kill().unwrap();
    server.wait().unwrap();

    eprintln!("upload flood: 16 bombs of {} KiB in {:.1} s; resident memory idle {idle} MiB, peak {peak} MiB (budget {BUDGET_MIB} MiB); {probes} page probes, slowest {} ms", bomb.len() / 1024, took.as_secs_f64(), slowest.as_millis());
    assert_eq!((stored, rows), (3, 3), "a free member's three photos, no more");
    assert_eq!(refused.1, r#"{"code":"photo_limit_reached"}"#);
    assert!(peak < BUDGET_MIB, "peak resident memory {peak} MiB is over the budget of {BUDGET_MIB} MiB");
    assert!(slowest < Duration::from_secs(5), "a page took {} ms during the flood", slowest.as_millis());
}

/// Streams a chunked multipart body to `/api/fn/upload_photo` over a raw connection: `part`
/// repeated until `total` bytes went out or the server answered. Answers the status line and
/// how many bytes of body went out before the server answered or closed.
async fn stream_body(port: u16, cookie: &str, boundary: &str, head: Vec<u8>, part: Vec<u8>, total: usize) -> (String, usize) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let stream = tokio::net::TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    let (mut read, mut write) = stream.into_split();
    let request = format!(
        "POST /api/fn/upload_photo HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\nCookie: {cookie}\r\nAccept: application/json\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    write.write_all(request.as_bytes()).await.unwrap();
    let progress = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counted = progress.clone();
    let writer = tokio::spawn(async move {
        let mut sent = 0;
        let mut chunk = head;
        while sent < total {
            while chunk.len() < 64 * 1024 {
                chunk.extend_from_slice(&part);
            }
            let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
            framed.extend_from_slice(&chunk);
            framed.extend_from_slice(b"\r\n");
            if write.write_all(&framed).await.is_err() {
                break;
            }
            sent += chunk.len();
            counted.store(sent, std::sync::atomic::Ordering::Relaxed);
            chunk = Vec::new();
        }
    });
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    while !answer.windows(4).any(|w| w == b"\r\n\r\n") {
        match tokio::time::timeout(Duration::from_secs(120), read.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => answer.extend_from_slice(&buf[..n]),
            _ => break,
        }
    }
    // The answer is in: stop sending (a server that still read would keep the writer going).
    writer.abort();
    let _ = writer.await;
    let sent = progress.load(std::sync::atomic::Ordering::Relaxed);
    let status = String::from_utf8_lossy(&answer).lines().next().unwrap_or_default().to_string();
    (status, sent)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endless_multipart_bodies_are_cut_off_and_leave_memory_alone() {
    let dir = tempfile::tempdir().unwrap();
    let port = binary::free_port();
    let base = format!("http://127.0.0.1:{port}");
    let vars = binary::vars(dir.path(), port, &[]);
    let state = binary::state(&vars).await;
    binary::signup_anna(&state, &base).await;
    let mut server = binary::spawn(&vars, &[], "error", Stdio::null());
    let pid = server.id();
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let cookie = wait_and_log_in(&client, &base).await;
    let idle = memory_mib(pid, "VmHWM:");

    // Four bodies of 1 KiB fields and four of one endless file, 256 MiB each if nothing stopped
    // them: 2 GiB in all.
    const EACH: usize = 256 << 20;
    let boundary = "----vonk-endless-9f3K";
    let field = format!("--{boundary}\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n{}\r\n", "w".repeat(1024)).into_bytes();
    let file_head =
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"x.png\"\r\nContent-Type: image/png\r\n\r\n").into_bytes();
    let started = Instant::now();
    let floods: Vec<_> = (0..8)
        .map(|i| {
            let cookie = cookie.clone();
            let (head, part) = if i % 2 == 0 { (Vec::new(), field.clone()) } else { (file_head.clone(), vec![b'p'; 4096]) };
            tokio::spawn(async move { stream_body(port, &cookie, boundary, head, part, EACH).await })
        })
        .collect();
    let mut answers = Vec::new();
    for flood in floods {
        answers.push(flood.await.unwrap());
    }
    let took = started.elapsed();
    let peak = memory_mib(pid, "VmHWM:");
    let res = client.get(format!("{base}/")).send().await.unwrap();
    assert!(res.status().is_success(), "the server still answers");
    server.kill().unwrap();
    server.wait().unwrap();

    let most_sent = answers.iter().map(|(_, sent)| *sent).max().unwrap();
    eprintln!(
        "endless multipart bodies: 8 × up to {} MiB in {:.1} s; at most {} KiB sent before the answer; peak resident memory {idle} MiB before, {peak} MiB after",
        EACH >> 20,
        took.as_secs_f64(),
        most_sent / 1024
    );
    for (i, (status, _)) in answers.iter().enumerate() {
        let expected = if i % 2 == 0 { " 400 " } else { " 413 " };
        assert!(status.contains(expected), "flood {i}: {status:?}");
    }
    // Only what fits one upload (10 MiB and a little) is read of any body; the kernel's and
    // the client's buffers hold some more in flight.
    assert!(most_sent < 32 << 20, "{most_sent} bytes went out before the answer");
    // The four file floods may each hold one upload (10 MiB) while it grows, its old buffer
    // beside the new one at the last step (8 + 10 MiB); the field floods hold almost nothing.
    // Beyond that the server's own buffers and allocator: 32 MiB.
    let upload_mib = (domain::photo::DEFAULT_MAX_UPLOAD_BYTES >> 20) as u64;
    let bound = 4 * (upload_mib + upload_mib * 8 / 10) + 32;
    assert!(peak < idle + bound, "peak resident memory {peak} MiB against {idle} MiB before the flood (bound +{bound} MiB)");
}
