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

/// Files under one directory (`DATA_DIR/media/private` by default: never served as static files).
#[derive(Debug, Clone)]
pub struct LocalStore {
    root: PathBuf,
}

impl LocalStore {
    pub fn new(root: impl Into<PathBuf>) -> LocalStore {
        LocalStore { root: root.into() }
    }

    /// Keys are ours, but a key that could leave the root is refused all the same.
    fn path(&self, key: &str) -> Result<PathBuf, AppError> {
        let safe = !key.is_empty()
            && Path::new(key).components().all(|c| matches!(c, std::path::Component::Normal(_)))
            && key.bytes().all(|b| b.is_ascii_alphanumeric() || b"/-_.".contains(&b));
        if !safe {
            return Err(AppError::Internal(format!("refused media key {key:?}")));
        }
        Ok(self.root.join(key))
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
        for key in ["../x", "/etc/passwd", "a/../../b", "a\\b", ""] {
            assert!(store.put(key, vec![1]).await.is_err(), "{key}");
        }
    }
}
