//! Server functions of the account pages. Each answers for the calling member only.

use domain::profile::Region;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

/// What `/complete-signup`, `/profile` and `/settings` show and prefill.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MyBasics {
    pub name: String,
    pub date_of_birth: String,
    pub gender: String,
    pub sexuality: String,
    pub country: String,
    pub region: String,
    pub region_name: String,
    pub city: String,
    /// The site's countries and their regions, for the location fields.
    pub countries: Vec<String>,
    pub regions: Vec<Region>,
    pub notify_messages: bool,
    pub notify_likes: bool,
    pub notify_news: bool,
    /// The rest of the profile, for the editor.
    pub details: domain::profile::DetailsForm,
}

#[server(prefix = "/api/fn", endpoint = "my_basics")]
pub async fn get_my_basics() -> Result<MyBasics, ServerFnError> {
    use crate::ssr::{public_error, request_member};
    let (state, site, member) = request_member()?;
    let basics = state.members.basics(member.id).await.map_err(public_error)?;
    let prefs = state.accounts.notification_prefs(member.id).await.map_err(public_error)?;
    let details = state.members.details(member.id).await.map_err(public_error)?;
    let region_name = basics.region.as_deref().and_then(|r| state.members.regions().get(r)).map(|r| r.name.clone()).unwrap_or_default();
    Ok(MyBasics {
        name: basics.name,
        date_of_birth: basics.date_of_birth,
        gender: basics.gender.unwrap_or_default(),
        sexuality: basics.sexuality.unwrap_or_default(),
        country: basics.country.unwrap_or_default(),
        region: basics.region.unwrap_or_default(),
        region_name,
        city: basics.city.unwrap_or_default(),
        regions: state.members.regions_for(&site.settings),
        countries: site.settings.countries.clone(),
        notify_messages: prefs.messages,
        notify_likes: prefs.likes,
        notify_news: prefs.news,
        details,
    })
}

/// The member's own photos for `/profile`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MyPhotos {
    pub photos: Vec<domain::photo::OwnPhoto>,
    pub limit: usize,
    pub premium: bool,
    /// The upload size limit in whole megabytes, for the form's hint.
    pub max_mb: usize,
}

#[server(prefix = "/api/fn", endpoint = "my_photos")]
pub async fn get_my_photos() -> Result<MyPhotos, ServerFnError> {
    use crate::ssr::{public_error, request_member};
    let (state, _site, member) = request_member()?;
    let own = state.photos.own(&member).await.map_err(public_error)?;
    Ok(MyPhotos { photos: own.photos, limit: own.limit, premium: member.paid_user, max_mb: state.photos.max_bytes().div_ceil(1 << 20) })
}

/// One photo in the staff review queue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueuedPhotoView {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub created_at: i64,
    pub private: bool,
}

/// The photos waiting for review on this site; staff only.
#[server(prefix = "/api/fn", endpoint = "photo_queue")]
pub async fn photo_queue() -> Result<Vec<QueuedPhotoView>, ServerFnError> {
    use crate::ssr::{public_error, request_member};
    let (state, site, member) = request_member()?;
    if !member.staff {
        return Err(ServerFnError::ServerError("forbidden".into()));
    }
    let queue = state.photos.queue(site.settings.id, 100).await.map_err(public_error)?;
    Ok(queue.into_iter().map(|q| QueuedPhotoView { id: q.id, user_id: q.user_id, name: q.name, created_at: q.created_at, private: q.private }).collect())
}
