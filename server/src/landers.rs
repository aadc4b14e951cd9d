//! Landers' bounce log (SPEC §9 `lb`): a page opened with `lb` in its URL reports when it was
//! hidden before the visitor clicked anything; stored with the lander, slug and tracking, and
//! counted per lander for staff.

use domain::account::Tracking;

use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::staff::require_staff;

/// Bounces of one lander since a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BounceFigure {
    pub lander: String,
    pub bounces: i64,
    /// Of those, from visitors with a traffic source (`network` or `ref`).
    pub with_source: i64,
}

/// What a lander shows of one member besides their card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanderDetails {
    pub online: bool,
    /// The main photo's file (not the thumbnail).
    pub photo: Option<String>,
}

#[derive(Debug, Clone)]
pub struct Landers {
    db: Db,
}

impl Landers {
    pub fn new(db: Db) -> Landers {
        Landers { db }
    }

    /// Stores the bounce of the page at `path_and_query` when its URL asked for it (`lb`);
    /// returns whether it did.
    pub async fn record_bounce(&self, site_id: i64, path_and_query: &str, now: i64) -> Result<bool, AppError> {
        let (path, query) = path_and_query.split_once('?').unwrap_or((path_and_query, ""));
        if !domain::lander::wants_bounce_log(query) {
            return Ok(false);
        }
        let (lander, slug) = domain::lander::from_path(path);
        let t = Tracking::from_query(query);
        sqlx::query("INSERT INTO page_bounces (site_id, lander, slug, network, ref, sub1, sub2, sub3, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)")
            .bind(site_id)
            .bind(lander)
            .bind(slug)
            .bind(t.network)
            .bind(t.r#ref)
            .bind(t.sub1)
            .bind(t.sub2)
            .bind(t.sub3)
            .bind(now)
            .execute(self.db.pool())
            .await?;
        Ok(true)
    }

    /// Bounces per lander since `since`, most first (staff only).
    pub async fn bounce_figures(&self, staff: &Member, site_id: i64, since: i64) -> Result<Vec<BounceFigure>, AppError> {
        require_staff(staff, site_id, crate::staff::StaffArea::Log)?;
        let rows: Vec<(String, i64, i64)> = sqlx::query_as(
            "SELECT lander, COUNT(*) AS bounces, SUM(CASE WHEN network IS NOT NULL OR ref IS NOT NULL THEN 1 ELSE 0 END) AS with_source \
             FROM page_bounces WHERE site_id = $1 AND created_at >= $2 GROUP BY lander ORDER BY bounces DESC, lander LIMIT 100",
        )
        .bind(site_id)
        .bind(since)
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows.into_iter().map(|(lander, bounces, with_source)| BounceFigure { lander, bounces, with_source }).collect())
    }

    /// How many findable members of the site were active since `since` (the landers' "online").
    pub async fn online_count(&self, site_id: i64, since: i64) -> Result<i64, AppError> {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM profiles WHERE site_id = $1 AND searchable = $2 AND last_active >= $3")
            .bind(site_id)
            .bind(true)
            .bind(since)
            .fetch_one(self.db.pool())
            .await?;
        Ok(count)
    }

    /// For each of `ids` (at most 100): whether they were active since `since`, and their main
    /// photo (the landers show some members larger than a card's thumbnail).
    pub async fn details(&self, site_id: i64, ids: &[i64], since: i64) -> Result<std::collections::HashMap<i64, LanderDetails>, AppError> {
        if ids.is_empty() {
            return Ok(Default::default());
        }
        let list = ids.iter().take(100).map(|id| id.to_string()).collect::<Vec<_>>().join(",");
        let rows: Vec<(i64, i64, Option<String>)> =
            sqlx::query_as(&format!("SELECT user_id, last_active, main_photo FROM profiles WHERE site_id = $1 AND user_id IN ({list})"))
                .bind(site_id)
                .fetch_all(self.db.pool())
                .await?;
        Ok(rows.into_iter().map(|(id, active, photo)| (id, LanderDetails { online: active >= since, photo })).collect())
    }
}

/// The looping clip of the video landers, under the media folder's public part.
pub const CLIP_PATH: &str = "public/demo/lander-clip.webm";
/// Its poster, the first portrait of the clip.
pub const CLIP_POSTER: &str = "public/demo/female-0.jpg";

/// Makes the video landers' clip from four portraits of `dir` once (SPEC §2 "landing page with
/// video"): each slowly zoomed for three seconds, cross-faded into the next, VP8 in WebM, no
/// sound. Needs `ffmpeg` on the PATH; without it (or on any failure) there is no clip and the
/// landers cross-fade the portraits themselves. Returns whether the clip exists afterwards.
pub async fn make_clip(dir: &std::path::Path) -> bool {
    let out = dir.join("lander-clip.webm");
    if out.exists() {
        return true;
    }
    let inputs: Vec<std::path::PathBuf> = (0..4).map(|i| dir.join(format!("female-{i}.jpg"))).collect();
    if inputs.iter().any(|p| !p.exists()) {
        return false;
    }
    let tmp = dir.join("lander-clip.tmp.webm");
    let mut cmd = tokio::process::Command::new("ffmpeg");
    cmd.args(["-y", "-nostdin", "-loglevel", "error"]);
    for input in &inputs {
        cmd.arg("-i").arg(input);
    }
    let zoom = |i: usize| {
        format!("[{i}:v]scale=480:480,zoompan=z='min(zoom+0.0015,1.2)':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=75:s=480x480:fps=25,setsar=1[v{i}]")
    };
    let filter = format!(
        "{};{};{};{};[v0][v1]xfade=transition=fade:duration=0.6:offset=2.4[x1];[x1][v2]xfade=transition=fade:duration=0.6:offset=4.8[x2];[x2][v3]xfade=transition=fade:duration=0.6:offset=7.2,format=yuv420p[v]",
        zoom(0),
        zoom(1),
        zoom(2),
        zoom(3)
    );
    cmd.args(["-filter_complex", &filter, "-map", "[v]", "-an", "-c:v", "libvpx", "-b:v", "400k", "-deadline", "good", "-cpu-used", "4", "-f", "webm"])
        .arg(&tmp);
    cmd.kill_on_drop(true).stdout(std::process::Stdio::null()).stderr(std::process::Stdio::piped());
    let result = tokio::time::timeout(std::time::Duration::from_secs(120), cmd.output()).await;
    match result {
        Ok(Ok(output)) if output.status.success() => match std::fs::rename(&tmp, &out) {
            Ok(()) => true,
            Err(error) => {
                tracing::warn!(%error, "lander clip: could not move it in place");
                false
            }
        },
        Ok(Ok(output)) => {
            tracing::warn!(stderr = %String::from_utf8_lossy(&output.stderr).chars().take(400).collect::<String>(), "lander clip: ffmpeg failed");
            let _ = std::fs::remove_file(&tmp);
            false
        }
        Ok(Err(error)) => {
            tracing::info!(%error, "lander clip: ffmpeg is not available; the video landers cross-fade the portraits");
            false
        }
        Err(_) => {
            tracing::warn!("lander clip: ffmpeg took too long");
            let _ = std::fs::remove_file(&tmp);
            false
        }
    }
}
