//! Photos: upload (decoded and re-encoded, see [`super::photo_decode`]), the member's own list,
//! main photo and private choices, deletion, the gallery others see, the checked file read
//! behind `/media/photos/…`, and the staff moderation queue.
//!
//! Every call that names a photo checks its owner in the same query: a member can only act on
//! their own photos, and a file is only read after [`domain::photo::access`] allowed it.

use domain::notifications::NotificationKind;
use domain::photo::{access, photo_limit, Access, GalleryPhoto, OwnPhoto, PhotoFacts, PhotoStatus, UploadError, Viewer};
use domain::rows::Flag;
use sqlx::{Any, Transaction};

use super::photo_decode::{PhotoDecoder, Renditions};
use crate::accounts::Member;
use crate::db::Db;
use crate::error::AppError;
use crate::media::Media;
use crate::staff::StaffArea;

/// The member's own photos with the limit that applies to them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnPhotos {
    pub photos: Vec<OwnPhoto>,
    pub limit: usize,
}

pub use domain::photo::QueuedPhoto;

/// One of the member's own photos, with their main photo.
#[derive(sqlx::FromRow)]
struct OwnRow {
    id: i64,
    status: String,
    #[sqlx(try_from = "Flag")]
    private: bool,
    main_photo_id: Option<i64>,
}

/// An active photo of a profile, with the profile's main photo.
#[derive(sqlx::FromRow)]
struct GalleryRow {
    id: i64,
    #[sqlx(try_from = "Flag")]
    private: bool,
    main_photo_id: Option<i64>,
}

/// A photo with its files and what decides whether a viewer may see it.
#[derive(sqlx::FromRow)]
struct FileRow {
    user_id: i64,
    status: String,
    #[sqlx(try_from = "Flag")]
    private: bool,
    filename: String,
    thumb_filename: String,
    #[sqlx(try_from = "Flag")]
    webp: bool,
    #[sqlx(try_from = "Flag")]
    searchable: bool,
    main_photo_id: Option<i64>,
    blocks: i64,
}

/// A photo waiting for review, with its owner's profile name.
#[derive(sqlx::FromRow)]
struct QueueRow {
    id: i64,
    user_id: i64,
    created_at: i64,
    #[sqlx(try_from = "Flag")]
    private: bool,
    name: String,
    review_score: Option<i64>,
    review_reason: Option<String>,
}

/// How many photos a member has, counted inside the upload's transaction.
async fn count<'e>(db: impl sqlx::Executor<'e, Database = Any>, user_id: i64) -> Result<usize, sqlx::Error> {
    let (n,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM photos WHERE user_id = $1").bind(user_id).fetch_one(db).await?;
    Ok(n as usize)
}

/// Where the WebP copy of a stored photo JPEG lives (`…/12-ab.jpg` → `…/12-ab.webp`). A photo's
/// row says whether it has its copies (`photos.webp`); those stored before copies were made get
/// them from [`Photos::add_webp_copies`] and are sent as JPEG until then.
pub fn webp_key(jpeg_key: &str) -> Option<String> {
    jpeg_key.strip_suffix(".jpg").filter(|_| jpeg_key.starts_with("photos/")).map(|stem| format!("{stem}.webp"))
}

/// A stored photo's files: the JPEGs and their WebP copies.
pub(crate) fn stored_files(file: String, thumb: String) -> Vec<String> {
    let copies: Vec<String> = [&file, &thumb].into_iter().filter_map(|k| webp_key(k)).collect();
    [file, thumb].into_iter().chain(copies).collect()
}

/// A photo file as it is sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PhotoFile {
    pub bytes: Vec<u8>,
    pub content_type: &'static str,
}

pub(crate) fn random_suffix() -> String {
    crate::accounts::tokens::random_hex::<8>()
}

#[derive(Clone, Debug)]
pub struct Photos {
    db: Db,
    media: Media,
    decoder: PhotoDecoder,
    /// What looks at new photos to sort the review queue (`crate::moderation`).
    classifier: crate::moderation::PhotoClassifier,
}

impl Photos {
    pub fn new(db: Db, media: Media, decoder: PhotoDecoder) -> Photos {
        Photos { db, media, decoder, classifier: Default::default() }
    }

    /// New photos are looked at by this classifier: the likely refusals come first in the queue.
    pub fn with_classifier(mut self, classifier: crate::moderation::PhotoClassifier) -> Photos {
        self.classifier = classifier;
        self
    }

    pub fn max_bytes(&self) -> usize {
        self.decoder.max_bytes()
    }

    /// The decoder uploads share (chat photos go through it too).
    pub fn decoder(&self) -> &PhotoDecoder {
        &self.decoder
    }

    /// Refuses with `photo_limit_reached` when the member has no room for another photo: asked
    /// before an upload's body is read, so a full account costs no reading or decoding.
    pub async fn check_room(&self, member: &Member) -> Result<(), AppError> {
        if count(self.db.pool(), member.id).await? >= photo_limit(member.paid_user) {
            return Err(AppError::from(UploadError::LimitReached.code()));
        }
        Ok(())
    }

    /// Stores a new photo, under inspection until staff approve it. The first public photo
    /// becomes the main photo. Refused uploads store nothing. Callers ask [`Photos::check_room`]
    /// before they read the upload; the limit is checked again here, under a lock.
    pub async fn upload(&self, member: &Member, bytes: Vec<u8>, private: bool, now: i64) -> Result<i64, AppError> {
        let limit = photo_limit(member.paid_user);
        let Renditions { full, thumb, width, height, webp, hash } = self.decoder.decode_with_webp(bytes).await?;
        let has_webp = webp.is_some();
        let verdict = self.classifier.verdict(hash);
        if verdict.is_some_and(domain::moderation::Verdict::flags) {
            tracing::warn!(target: "security", member = member.id, "a profile photo the classifier flagged waits for staff");
        }
        let (review_score, review_reason) = domain::moderation::Verdict::columns(verdict);

        let mut tx = self.db.begin().await?;
        // Takes the member's row lock so that two uploads at once cannot pass the limit.
        sqlx::query("UPDATE users SET status = status WHERE id = $1").bind(member.id).execute(&mut *tx).await?;
        if count(&mut *tx, member.id).await? >= limit {
            return Err(AppError::from(UploadError::LimitReached.code()));
        }
        let (id,): (i64,) = sqlx::query_as(
            "INSERT INTO photos (user_id, filename, thumb_filename, status, private, created_at, width, height, webp, review_score, review_reason) \
             VALUES ($1, '', '', $6, $2, $3, $4, $5, $7, $8, $9) RETURNING id",
        )
        .bind(member.id)
        .bind(private)
        .bind(now)
        .bind(i64::from(width))
        .bind(i64::from(height))
        .bind(domain::photo::PhotoStatus::UnderInspection.code())
        .bind(has_webp)
        .bind(review_score)
        .bind(review_reason)
        .fetch_one(&mut *tx)
        .await?;
        let stem = format!("photos/{}/{id}-{}", member.id, random_suffix());
        let (file, thumb_file) = (format!("{stem}.jpg"), format!("{stem}-thumb.jpg"));
        sqlx::query("UPDATE photos SET filename = $1, thumb_filename = $2 WHERE id = $3").bind(&file).bind(&thumb_file).bind(id).execute(&mut *tx).await?;
        if !private {
            sqlx::query("UPDATE profiles SET main_photo_id = $1 WHERE user_id = $2 AND main_photo_id IS NULL")
                .bind(id)
                .bind(member.id)
                .execute(&mut *tx)
                .await?;
        }
        let mut files = vec![(file.clone(), full), (thumb_file.clone(), thumb)];
        if let Some(webp) = webp {
            files.extend(webp_key(&file).map(|k| (k, webp.full)));
            files.extend(webp_key(&thumb_file).map(|k| (k, webp.thumb)));
        }
        let mut written = Vec::new();
        for (key, bytes) in files {
            if let Err(e) = self.media.put(&key, bytes).await {
                self.forget(&written).await;
                return Err(e);
            }
            written.push(key);
        }
        if let Err(e) = tx.commit().await {
            self.forget(&written).await;
            return Err(e.into());
        }
        Ok(id)
    }

    /// Makes the WebP copies of up to `limit` photos stored before there were copies, oldest
    /// first, one at a time through the decoder's slots. A photo deleted meanwhile keeps no
    /// copy: its row is marked only if it still names the same files, else the copies go again.
    /// Returns how many photos got their copies.
    pub async fn add_webp_copies(&self, limit: i64) -> Result<usize, AppError> {
        let rows: Vec<(i64, String, String)> =
            sqlx::query_as("SELECT id, filename, thumb_filename FROM photos WHERE webp = $1 AND filename <> '' ORDER BY id LIMIT $2")
                .bind(false)
                .bind(limit)
                .fetch_all(self.db.pool())
                .await?;
        let mut done = 0;
        for (id, file, thumb) in rows {
            let (Some(full_key), Some(thumb_key)) = (webp_key(&file), webp_key(&thumb)) else { continue };
            let Some(jpeg) = self.media.get(&file).await? else {
                tracing::warn!(id, "a photo's file is missing; no WebP copy made");
                continue;
            };
            // The stored JPEG was re-encoded by us: decoding it again is safe and within limits.
            let copies = match self.decoder.webp_copies(jpeg).await {
                Ok(copies) => copies,
                Err(error) => {
                    tracing::warn!(%error, id, "a photo could not be copied as WebP");
                    continue;
                }
            };
            self.media.put(&full_key, copies.full).await?;
            self.media.put(&thumb_key, copies.thumb).await?;
            let marked =
                sqlx::query("UPDATE photos SET webp = $1 WHERE id = $2 AND filename = $3").bind(true).bind(id).bind(&file).execute(self.db.pool()).await?;
            if marked.rows_affected() == 0 {
                self.forget(&[full_key, thumb_key]).await;
            } else {
                done += 1;
            }
        }
        Ok(done)
    }

    /// Deletes files whose rows are gone (or never came); failures are logged, not fatal.
    async fn forget(&self, keys: &[String]) {
        for key in keys {
            if let Err(error) = self.media.delete(key).await {
                tracing::warn!(%error, "could not delete a media file");
            }
        }
    }

    pub async fn own(&self, member: &Member) -> Result<OwnPhotos, AppError> {
        let rows = sqlx::query_as::<_, OwnRow>(
            "SELECT ph.id, ph.status, ph.private, p.main_photo_id \
             FROM photos ph JOIN profiles p ON p.user_id = ph.user_id WHERE ph.user_id = $1 ORDER BY ph.id",
        )
        .bind(member.id)
        .fetch_all(self.db.pool())
        .await?;
        let photos = rows
            .into_iter()
            .map(|row| OwnPhoto {
                id: row.id,
                status: PhotoStatus::parse(&row.status).unwrap_or(PhotoStatus::UnderInspection),
                private: row.private,
                is_main: row.main_photo_id == Some(row.id),
            })
            .collect();
        Ok(OwnPhotos { photos, limit: photo_limit(member.paid_user) })
    }

    /// Makes one of the member's public photos the main photo.
    pub async fn set_main(&self, user_id: i64, photo_id: i64) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        let done = sqlx::query(
            "UPDATE profiles SET main_photo_id = $1 WHERE user_id = $2 AND EXISTS \
             (SELECT 1 FROM photos ph WHERE ph.id = $1 AND ph.user_id = $2 AND ph.private = $3 AND ph.status <> $4)",
        )
        .bind(photo_id)
        .bind(user_id)
        .bind(false)
        .bind(domain::photo::PhotoStatus::Disabled.code())
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() == 0 {
            return Err(AppError::from(domain::ErrorCode::NotFound));
        }
        refresh_main(&mut tx, user_id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Marks a photo private or public. A private photo cannot stay the main photo.
    pub async fn set_private(&self, user_id: i64, photo_id: i64, private: bool) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        let done =
            sqlx::query("UPDATE photos SET private = $1 WHERE id = $2 AND user_id = $3").bind(private).bind(photo_id).bind(user_id).execute(&mut *tx).await?;
        if done.rows_affected() == 0 {
            return Err(AppError::from(domain::ErrorCode::NotFound));
        }
        choose_main_if_needed(&mut tx, user_id).await?;
        refresh_main(&mut tx, user_id).await?;
        tx.commit().await?;
        Ok(())
    }

    pub async fn delete(&self, user_id: i64, photo_id: i64) -> Result<(), AppError> {
        let mut tx = self.db.begin().await?;
        let row: Option<(String, String)> = sqlx::query_as("DELETE FROM photos WHERE id = $1 AND user_id = $2 RETURNING filename, thumb_filename")
            .bind(photo_id)
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some((file, thumb)) = row else { return Err(AppError::from(domain::ErrorCode::NotFound)) };
        sqlx::query("UPDATE profiles SET main_photo_id = NULL WHERE user_id = $1 AND main_photo_id = $2")
            .bind(user_id)
            .bind(photo_id)
            .execute(&mut *tx)
            .await?;
        choose_main_if_needed(&mut tx, user_id).await?;
        refresh_main(&mut tx, user_id).await?;
        let files = stored_files(file, thumb);
        crate::media::trash(&mut tx, &files).await?;
        tx.commit().await?;
        if let Err(error) = crate::media::remove_trashed(&self.db, &self.media, files).await {
            tracing::warn!(%error, "could not empty the media trash");
        }
        Ok(())
    }

    /// The photos others see on a profile page: active ones, the main photo first; private
    /// ones come locked unless the viewer may open them. The caller has checked that the
    /// viewer may see the profile at all.
    pub async fn gallery(&self, viewer: Option<&Member>, owner_id: i64) -> Result<Vec<GalleryPhoto>, AppError> {
        let rows = sqlx::query_as::<_, GalleryRow>(
            "SELECT ph.id, ph.private, p.main_photo_id FROM photos ph JOIN profiles p ON p.user_id = ph.user_id \
             WHERE ph.user_id = $1 AND ph.status = $2 ORDER BY CASE WHEN p.main_photo_id = ph.id THEN 0 ELSE 1 END, ph.id",
        )
        .bind(owner_id)
        .bind(domain::photo::PhotoStatus::Active.code())
        .fetch_all(self.db.pool())
        .await?;
        let who = viewer_of(viewer, owner_id);
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let id = row.id;
            let facts = PhotoFacts { status: PhotoStatus::Active, private: row.private, is_main: row.main_photo_id == Some(id) };
            match access(who, facts) {
                Access::Open => out.push(GalleryPhoto { id, locked: false }),
                Access::PremiumRequired | Access::LoginRequired => out.push(GalleryPhoto { id, locked: true }),
                Access::Hidden => {}
            }
        }
        Ok(out)
    }

    /// The bytes of a photo (or its thumbnail) if this viewer may see it on this site: its WebP
    /// copy when the browser takes WebP (`webp`) and there is one, else the JPEG.
    /// Profiles that are hidden or blocked either way hide their photos too.
    pub async fn file(&self, viewer: Option<&Member>, site_id: i64, photo_id: i64, thumb: bool, webp: bool) -> Result<Result<PhotoFile, Access>, AppError> {
        let row = sqlx::query_as::<_, FileRow>(concat!(
            "SELECT ph.user_id, ph.status, ph.private, ph.filename, ph.thumb_filename, ph.webp, p.searchable, p.main_photo_id, \
             CAST(CASE WHEN ",
            crate::visibility::not_blocked!("$2", "ph.user_id"),
            " THEN 0 ELSE 1 END AS BIGINT) AS blocks FROM photos ph JOIN profiles p ON p.user_id = ph.user_id WHERE ph.id = $1 AND p.site_id = $3"
        ))
        .bind(photo_id)
        .bind(viewer.map(|m| m.id).unwrap_or(0))
        .bind(site_id)
        .fetch_optional(self.db.pool())
        .await?;
        let Some(row) = row else { return Ok(Err(Access::Hidden)) };
        let facts = PhotoFacts {
            status: PhotoStatus::parse(&row.status).unwrap_or(PhotoStatus::UnderInspection),
            private: row.private,
            is_main: row.main_photo_id == Some(photo_id),
        };
        let who = viewer_of(viewer, row.user_id);
        let visible_profile = row.searchable && row.blocks == 0;
        if !matches!(who, Viewer::Owner | Viewer::Staff) && !visible_profile {
            return Ok(Err(Access::Hidden));
        }
        match access(who, facts) {
            Access::Open => {}
            refused => return Ok(Err(refused)),
        }
        let key = if thumb { row.thumb_filename } else { row.filename };
        if let Some(copy) = (webp && row.webp).then(|| webp_key(&key)).flatten() {
            if let Some(bytes) = self.media.get(&copy).await? {
                return Ok(Ok(PhotoFile { bytes, content_type: "image/webp" }));
            }
        }
        Ok(self.media.get(&key).await?.map(|bytes| PhotoFile { bytes, content_type: "image/jpeg" }).ok_or(Access::Hidden))
    }

    /// Photos waiting for review (moderators and admins): those a classifier scored highest
    /// first, then the oldest.
    pub async fn queue(&self, staff: &Member, site_id: i64, limit: i64) -> Result<Vec<QueuedPhoto>, AppError> {
        crate::staff::require_staff(staff, site_id, StaffArea::Photos)?;
        let rows = sqlx::query_as::<_, QueueRow>(
            "SELECT ph.id, ph.user_id, ph.created_at, ph.private, p.name, ph.review_score, ph.review_reason FROM photos ph JOIN profiles p ON p.user_id = ph.user_id \
             WHERE ph.status = $3 AND p.site_id = $1 ORDER BY COALESCE(ph.review_score, 0) DESC, ph.id LIMIT $2",
        )
        .bind(site_id)
        .bind(limit)
        .bind(domain::photo::PhotoStatus::UnderInspection.code())
        .fetch_all(self.db.pool())
        .await?;
        Ok(rows
            .into_iter()
            .map(|row| QueuedPhoto {
                id: row.id,
                user_id: row.user_id,
                name: row.name,
                created_at: row.created_at,
                private: row.private,
                verdict: domain::moderation::Verdict::from_columns(row.review_score, row.review_reason.as_deref()),
            })
            .collect())
    }

    /// Moderators and admins approve (active) or reject (disabled) a photo of their site.
    pub async fn review(&self, staff: &Member, site_id: i64, photo_id: i64, approve: bool, now: i64) -> Result<(), AppError> {
        crate::staff::require_staff(staff, site_id, StaffArea::Photos)?;
        let mut tx = self.db.begin().await?;
        let owner: Option<(i64,)> = sqlx::query_as(
            "UPDATE photos SET status = $1, reviewed_by = $2, reviewed_at = $3 WHERE id = $4 \
             AND user_id IN (SELECT user_id FROM profiles WHERE site_id = $5) RETURNING user_id",
        )
        .bind(if approve { "active" } else { "disabled" })
        .bind(staff.id)
        .bind(now)
        .bind(photo_id)
        .bind(site_id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((owner,)) = owner else { return Err(AppError::from(domain::ErrorCode::NotFound)) };
        if !approve {
            sqlx::query("UPDATE profiles SET main_photo_id = NULL WHERE user_id = $1 AND main_photo_id = $2")
                .bind(owner)
                .bind(photo_id)
                .execute(&mut *tx)
                .await?;
            choose_main_if_needed(&mut tx, owner).await?;
        }
        refresh_main(&mut tx, owner).await?;
        let notice = if approve { NotificationKind::PhotoApproved } else { NotificationKind::PhotoRejected };
        crate::notifications::record(&mut tx, owner, notice, None, now).await?;
        let action = if approve { "photo_approve" } else { "photo_reject" };
        crate::staff::record(&mut tx, site_id, staff, action, &format!("photo #{photo_id}"), &format!("member #{owner}"), now).await?;
        tx.commit().await?;
        Ok(())
    }
}

fn viewer_of(viewer: Option<&Member>, owner: i64) -> Viewer {
    match viewer {
        None => Viewer::Visitor,
        Some(m) if m.id == owner => Viewer::Owner,
        // Those who judge photos and complaints about them see them all.
        Some(m) if m.may(StaffArea::Photos) || m.may(StaffArea::Complaints) => Viewer::Staff,
        Some(m) => Viewer::Member { premium: m.paid_user },
    }
}

/// When the main photo went (deleted, made private, rejected), the oldest public photo that
/// is not rejected takes its place.
async fn choose_main_if_needed(tx: &mut Transaction<'static, Any>, user_id: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE profiles SET main_photo_id = NULL WHERE user_id = $1 AND main_photo_id IS NOT NULL AND NOT EXISTS \
         (SELECT 1 FROM photos ph WHERE ph.id = profiles.main_photo_id AND ph.private = $2 AND ph.status <> $3)",
    )
    .bind(user_id)
    .bind(false)
    .bind(domain::photo::PhotoStatus::Disabled.code())
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "UPDATE profiles SET main_photo_id = (SELECT MIN(ph.id) FROM photos ph WHERE ph.user_id = $1 AND ph.private = $2 AND ph.status <> $3) \
         WHERE user_id = $1 AND main_photo_id IS NULL",
    )
    .bind(user_id)
    .bind(false)
    .bind(domain::photo::PhotoStatus::Disabled.code())
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Copies the main photo into the columns that cards and profile pages read: set while the
/// main photo is active and public, empty otherwise.
async fn refresh_main(tx: &mut Transaction<'static, Any>, user_id: i64) -> Result<(), sqlx::Error> {
    let main: Option<(i64,)> =
        sqlx::query_as("SELECT ph.id FROM profiles p JOIN photos ph ON ph.id = p.main_photo_id WHERE p.user_id = $1 AND ph.status = $3 AND ph.private = $2")
            .bind(user_id)
            .bind(false)
            .bind(domain::photo::PhotoStatus::Active.code())
            .fetch_optional(&mut **tx)
            .await?;
    let (photo, thumb) = match main {
        Some((id,)) => (Some(format!("photos/{id}")), Some(format!("photos/{id}/thumb"))),
        None => (None, None),
    };
    sqlx::query("UPDATE profiles SET main_photo = $1, main_thumb = $2 WHERE user_id = $3").bind(photo).bind(thumb).bind(user_id).execute(&mut **tx).await?;
    // Cards show the thumbnail: search lists read from now on have the new one (one read
    // while this transaction is open may keep the old one for the cache's few seconds).
    super::search_cache::invalidate();
    Ok(())
}
