//! Reference data the product cannot work without, whatever the seed mode: the regions of every
//! country a site may serve and the interests members choose from. Both come with the binary
//! and are written (added or updated, never removed) at every start, so a new release brings its
//! new regions and interests to an existing database.

use crate::db::Db;
use crate::error::AppError;

/// Brings the database's regions and interests up to the binary's.
pub async fn sync(db: &Db) -> Result<(), AppError> {
    crate::regions::sync(db).await?;
    crate::members::search::sync_interests(db).await?;
    Ok(())
}
