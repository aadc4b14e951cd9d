//! Where uploaded media live. Everything goes through [`MediaStore`], so a node can keep files
//! in a local directory (the default) or, with several nodes, in S3-compatible storage behind
//! the same three calls. Keys are relative paths such as `photos/12/34-ab12cd.jpg`; they are
//! made by the server, never taken from a request.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::error::AppError;

/// Put, get and delete by key. Implementations must make `put` atomic (a reader never sees a
/// half-written file) and treat deleting a missing key as success.
#[async_trait::async_trait]
pub trait MediaStore: Send + Sync + std::fmt::Debug {
    async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), AppError>;
    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, AppError>;
    async fn delete(&self, key: &str) -> Result<(), AppError>;
}

/// A shared handle to the configured store.
pub type Media = Arc<dyn MediaStore>;

/// Marks stored files for removal inside the transaction that drops their rows; call
/// [`empty_trash`] after the commit. Keys already marked stay marked once.
pub async fn trash(tx: &mut sqlx::Transaction<'_, sqlx::Any>, keys: &[String]) -> Result<(), AppError> {
    for key in keys {
        sqlx::query("INSERT INTO media_trash (key) VALUES ($1) ON CONFLICT (key) DO NOTHING").bind(key).execute(&mut **tx).await?;
    }
    Ok(())
}

/// Removes marked files from the store, forgetting each mark only once the store confirmed.
/// What fails stays marked for the next run (the hourly housekeeping). Returns how many went.
pub async fn empty_trash(db: &crate::Db, media: &Media) -> Result<u64, AppError> {
    let keys: Vec<(String,)> = sqlx::query_as("SELECT key FROM media_trash ORDER BY key LIMIT 1000").fetch_all(db.pool()).await?;
    remove_trashed(db, media, keys.into_iter().map(|(key,)| key)).await
}

/// [`empty_trash`] for just these marked keys: what a request removes itself, without taking
/// on whatever else waits in the trash.
pub async fn remove_trashed(db: &crate::Db, media: &Media, keys: impl IntoIterator<Item = String>) -> Result<u64, AppError> {
    let mut removed = 0;
    for key in keys {
        match media.delete(&key).await {
            Ok(()) => {
                sqlx::query("DELETE FROM media_trash WHERE key = $1").bind(&key).execute(db.pool()).await?;
                removed += 1;
            }
            Err(error) => tracing::warn!(%error, "a removed file is still stored; trying again later"),
        }
    }
    Ok(removed)
}

/// Files under one directory (`DATA_DIR/media/private` by default: never served as static files).
#[derive(Debug, Clone)]
pub struct LocalStore {
    root: PathBuf,
}

impl LocalStore {
    pub fn new(root: impl Into<PathBuf>) -> LocalStore {
        LocalStore { root: root.into() }
    }

    fn path(&self, key: &str) -> Result<PathBuf, AppError> {
        Ok(self.root.join(checked(key)?))
    }
}

/// Keys are ours, but a key that could leave the root (or mean something else to a store) is
/// refused all the same: relative, plain segments of letters, digits and `-_.`.
fn checked(key: &str) -> Result<&str, AppError> {
    let safe = !key.is_empty()
        && Path::new(key).components().all(|c| matches!(c, std::path::Component::Normal(_)))
        && key.split('/').all(|segment| !segment.is_empty())
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b"/-_.".contains(&b));
    if safe {
        Ok(key)
    } else {
        Err(AppError::Internal(format!("refused media key {key:?}")))
    }
}

fn io(what: &str, key: &str, e: std::io::Error) -> AppError {
    AppError::Internal(format!("media {what} {key}: {e}"))
}

#[async_trait::async_trait]
impl MediaStore for LocalStore {
    async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), AppError> {
        let path = self.path(key)?;
        if let Some(dir) = path.parent() {
            tokio::fs::create_dir_all(dir).await.map_err(|e| io("mkdir", key, e))?;
        }
        // Written beside, then renamed: readers see the whole file or none.
        let partial = path.with_extension("partial");
        tokio::fs::write(&partial, bytes).await.map_err(|e| io("write", key, e))?;
        tokio::fs::rename(&partial, &path).await.map_err(|e| io("rename", key, e))
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, AppError> {
        match tokio::fs::read(self.path(key)?).await {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io("read", key, e)),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), AppError> {
        match tokio::fs::remove_file(self.path(key)?).await {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(io("delete", key, e)),
        }
    }
}

/// Where an S3-compatible bucket is (`VONK_S3_*`, see the README). The bucket stays private:
/// every photo is read by the server after its access check, never linked to directly.
#[derive(Clone)]
pub struct S3Config {
    pub bucket: String,
    /// Empty for AWS itself; the address of any other S3-compatible service.
    pub endpoint: String,
    pub region: String,
    pub access_key_id: String,
    pub secret_access_key: String,
    /// Put before every key, so one bucket can hold several installations.
    pub prefix: String,
}

impl std::fmt::Debug for S3Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Config")
            .field("bucket", &self.bucket)
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

/// Files in an S3-compatible bucket, for several nodes. An S3 PUT replaces an object whole, so
/// readers never see half a photo; deleting a missing object succeeds.
#[derive(Debug)]
pub struct S3Store {
    store: object_store::aws::AmazonS3,
    prefix: String,
}

impl S3Store {
    pub fn new(config: &S3Config) -> Result<S3Store, AppError> {
        let mut builder = object_store::aws::AmazonS3Builder::new()
            .with_bucket_name(&config.bucket)
            .with_region(&config.region)
            .with_access_key_id(&config.access_key_id)
            .with_secret_access_key(&config.secret_access_key)
            .with_retry(object_store::RetryConfig { max_retries: 3, retry_timeout: std::time::Duration::from_secs(10), ..Default::default() });
        if !config.endpoint.is_empty() {
            builder = builder.with_endpoint(&config.endpoint).with_allow_http(config.endpoint.starts_with("http://")).with_virtual_hosted_style_request(false);
        }
        let store = builder.build().map_err(|e| AppError::Internal(format!("S3 configuration: {e}")))?;
        let prefix = config.prefix.trim_matches('/');
        if !prefix.is_empty() {
            checked(prefix)?;
        }
        Ok(S3Store { store, prefix: prefix.to_string() })
    }

    fn location(&self, key: &str) -> Result<object_store::path::Path, AppError> {
        let key = checked(key)?;
        let full = if self.prefix.is_empty() { key.to_string() } else { format!("{}/{key}", self.prefix) };
        object_store::path::Path::parse(full).map_err(|e| AppError::Internal(format!("media key: {e}")))
    }
}

fn s3(what: &str, key: &str, e: object_store::Error) -> AppError {
    AppError::Internal(format!("media {what} {key} in S3: {e}"))
}

#[async_trait::async_trait]
impl MediaStore for S3Store {
    async fn put(&self, key: &str, bytes: Vec<u8>) -> Result<(), AppError> {
        use object_store::ObjectStore;
        self.store.put(&self.location(key)?, bytes.into()).await.map(|_| ()).map_err(|e| s3("write", key, e))
    }

    async fn get(&self, key: &str) -> Result<Option<Vec<u8>>, AppError> {
        use object_store::ObjectStore;
        match self.store.get(&self.location(key)?).await {
            Ok(found) => Ok(Some(found.bytes().await.map_err(|e| s3("read", key, e))?.to_vec())),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(s3("read", key, e)),
        }
    }

    async fn delete(&self, key: &str) -> Result<(), AppError> {
        use object_store::ObjectStore;
        match self.store.delete(&self.location(key)?).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(s3("delete", key, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn put_get_delete() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalStore::new(dir.path());
        store.put("photos/1/a.jpg", b"abc".to_vec()).await.unwrap();
        assert_eq!(store.get("photos/1/a.jpg").await.unwrap(), Some(b"abc".to_vec()));
        store.delete("photos/1/a.jpg").await.unwrap();
        assert_eq!(store.get("photos/1/a.jpg").await.unwrap(), None);
        store.delete("photos/1/a.jpg").await.unwrap();
    }

    #[tokio::test]
    async fn keys_cannot_escape() {
        let dir = tempfile::tempdir().unwrap();
        let store = LocalStore::new(dir.path().join("root"));
        for key in ["../x", "/etc/passwd", "a/../../b", "a\\b", "", "a//b", "a/"] {
            assert!(store.put(key, vec![1]).await.is_err(), "{key}");
        }
    }
}
