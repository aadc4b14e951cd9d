//! Server functions of the likes pages; the member always comes from the session.

use domain::search::MemberCard;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LikeItem {
    pub card: MemberCard,
    /// SPEC §3 like_new: a received like not looked at yet.
    pub new: bool,
    /// Whether the member likes this profile too (the card's heart).
    pub liked: bool,
}

/// One likes page, newest first (received: new ones first).
#[server(prefix = "/api/fn", endpoint = "my_likes")]
pub async fn my_likes(kind: domain::likes::LikeKind) -> Result<Vec<LikeItem>, ServerFnError> {
    use crate::ssr::{public_error, request_member};
    let (state, site, member) = request_member()?;
    let today = domain::account::Ymd::from_unix(state.accounts.clock().now());
    let list = state.likes.list(&site.settings, member.id, kind, today, 200).await.map_err(public_error)?;
    // Given likes and matches are liked by definition; received ones may be liked back.
    let liked_back = match kind {
        domain::likes::LikeKind::Received => state.likes.liked_among(member.id, &list.iter().map(|l| l.card.id).collect::<Vec<_>>()).await.map_err(public_error)?,
        _ => list.iter().map(|l| l.card.id).collect(),
    };
    Ok(list.into_iter().map(|l| LikeItem { liked: liked_back.contains(&l.card.id), card: l.card, new: l.new }).collect())
}
