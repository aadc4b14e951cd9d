//! Server functions of the members feature. The viewer always comes from the session.

use domain::profile::Region;
use domain::search::{MemberCard, ProfileView, SearchFilters, SearchResults};
use domain::ApiError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::call::{call, fail, member_call, redirect};

/// What `/members` renders: the checked filters, their choices and the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchPage {
    /// Visitors may not search on this site (SPEC §6 logged_out_search).
    pub visitor_refused: bool,
    pub filters: SearchFilters,
    /// Whether the gender filter came from the member's own preference.
    pub countries: Vec<String>,
    pub regions: Vec<Region>,
    pub results: SearchResults,
    /// The profile the member opened last, to go back to.
    pub last_opened: Option<MemberCard>,
    /// For a member: which of the profiles shown the member has liked (the cards' like buttons).
    pub liked: Option<Vec<i64>>,
}

/// Runs a search for the query string's filters. Members without a gender filter in the URL
/// see the gender they look for.
#[server(prefix = "/api/fn", endpoint = "search_members")]
pub async fn search_members(query: Vec<(String, String)>) -> Result<SearchPage, ApiError> {
    let public_error = fail;
    let c = call().await?;
    let (state, site) = (&c.state, &c.site);
    let member = c.viewer();
    let settings = &site.settings;
    let get = |key: &str| query.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
    let empty = SearchResults { results: vec![], has_more: false, similar: vec![], liked: vec![] };
    let mut filters = SearchFilters::from_query(get, &settings.countries, settings.min_age);
    let regions = state.members.regions_for(settings);
    let has_source = ["network", "ref"].iter().any(|k| get(k).is_some_and(|v| !v.is_empty()));
    if member.is_none() && !(settings.logged_out_search || (settings.logged_out_search_trafficsource && has_source)) {
        return Ok(SearchPage {
            visitor_refused: true,
            filters,
            countries: settings.countries.clone(),
            regions,
            results: empty,
            last_opened: None,
            liked: None,
        });
    }
    // Without a gender in the address, a member looking for one gender sees that one.
    if let Some(Some([only])) = member.as_ref().filter(|_| get("gender").is_none()).map(|m| m.seeks) {
        filters.gender = Some(*only);
    }
    let today = domain::account::Ymd::from_unix(c.now());
    let results = SearchResults::clone(&*state.members.search(settings, member.as_ref().map(|m| m.id), &filters, today).await.map_err(public_error)?);
    let last_opened = match &member {
        Some(m) => state.members.last_opened(settings, m.id, today).await.map_err(public_error)?.map(|(card, _)| card),
        None => None,
    };
    let liked = member.as_ref().map(|_| results.liked.clone());
    Ok(SearchPage { visitor_refused: false, filters, countries: settings.countries.clone(), regions, results, last_opened, liked })
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProfilePage {
    pub profile: ProfileView,
    pub related: Vec<MemberCard>,
    /// Active photos, the main one first; private ones locked for free members and visitors.
    pub photos: Vec<domain::photo::GalleryPhoto>,
    /// (I liked them, they liked me) for a member viewing someone else.
    pub likes: Option<(bool, bool)>,
}

/// A profile as the viewer may see it; `None` when hidden, blocked or unknown.
#[server(prefix = "/api/fn", endpoint = "member_profile")]
pub async fn member_profile(id: i64) -> Result<Option<ProfilePage>, ApiError> {
    let public_error = fail;
    let c = call().await?;
    let (state, site) = (&c.state, &c.site);
    let member = c.viewer();
    let viewer = member.as_ref().map(|m| m.id);
    let now = c.now();
    let today = domain::account::Ymd::from_unix(now);
    let Some(profile) = state.members.profile(&site.settings, viewer, id, today).await.map_err(public_error)? else { return Ok(None) };
    let related = state.members.related(&site.settings, viewer, &profile, today).await.map_err(public_error)?;
    let photos = state.photos.gallery(member.as_ref(), id).await.map_err(public_error)?;
    let mut likes = None;
    if let Some(me) = viewer.filter(|me| *me != id && !profile.blocked_by_me) {
        state.members.remember_opened(me, id, now).await.map_err(public_error)?;
        // Opening a profile clears its new-like flag (SPEC §4).
        state.likes.mark_seen(me, id).await.map_err(public_error)?;
        let s = state.likes.state(me, id).await.map_err(public_error)?;
        likes = Some((s.i_liked, s.they_liked));
    }
    Ok(Some(ProfilePage { profile, related, photos, likes }))
}

/// Blocks a member (SPEC §6): chats and likes between the two go; back on their page, which
/// now offers to unblock.
#[server(prefix = "/api/fn", endpoint = "block")]
pub async fn block(id: i64) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    let conversation = c.state.members.block(&c.site.settings, member.id, id, c.now()).await.map_err(fail)?;
    c.state.chat.removed_by_block(conversation, member.id, id).await.map_err(fail)?;
    redirect(&crate::paths::member_notice(id, crate::paths::ProfileNotice::Blocked));
    Ok(())
}

#[server(prefix = "/api/fn", endpoint = "unblock")]
pub async fn unblock(id: i64) -> Result<(), ApiError> {
    let (c, member) = member_call().await?;
    c.state.members.unblock(member.id, id).await.map_err(fail)?;
    redirect(&crate::paths::member_notice(id, crate::paths::ProfileNotice::Unblocked));
    Ok(())
}
