//! The pages of `scripts/bundle-pages.json` have the islands that table lists (and so the
//! budgets `scripts/bundle-sizes.sh` checks hold for what the pages really load).

use super::*;

/// The islands on a rendered page, by component name.
fn islands(html: &str) -> std::collections::BTreeSet<String> {
    html.match_indices("<leptos-island data-component=\"")
        .map(|(at, m)| {
            let name = &html[at + m.len()..];
            let name = &name[..name.find('"').unwrap()];
            name.rsplit_once('_').map_or(name, |(n, _)| n).to_string()
        })
        .collect()
}

#[tokio::test]
async fn every_page_in_the_bundle_table_has_the_islands_it_lists() {
    let app = start_with(&[("VONK_DEMO_MEMBERS", "20")]).await;
    let table: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/bundle-pages.json")).unwrap()).unwrap();
    let (profile,): (i64,) = sqlx::query_as("SELECT MIN(user_id) FROM profiles").fetch_one(app.state.db.pool()).await.unwrap();
    let member = ready_member(&app, "bundel@example.nl", "male").await;
    let _ = ready_member(&app, "andere@example.nl", "female").await;
    let (other,): (i64,) = sqlx::query_as("SELECT id FROM users WHERE email = 'andere@example.nl'").fetch_one(app.state.db.pool()).await.unwrap();
    let entry = "entry_accepted=1".to_string();
    let mut seen = std::collections::BTreeSet::new();
    for page in table["pages"].as_array().unwrap() {
        let path = page["page"].as_str().unwrap().replace("{profile}", &profile.to_string()).replace("{other}", &other.to_string());
        let cookie = if page["as"] == "member" { format!("{member}; {entry}") } else { entry.clone() };
        let (status, _, html) = app.get(&path, &[("accept", "text/html"), ("cookie", &cookie)]).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        let listed: std::collections::BTreeSet<String> = page["islands"].as_array().unwrap().iter().map(|i| i.as_str().unwrap().to_string()).collect();
        let found = islands(&html);
        assert!(found.is_subset(&listed), "{path} ({}): islands {found:?}, the table lists {listed:?}", page["as"]);
        if page["budget"].is_string() {
            // A page with a budget lists exactly what it has, so the budget is not checked against a larger set.
            assert_eq!(found, listed, "{path}");
        }
        seen.extend(found);
    }
    // The member layout's islands were all seen somewhere (they show depending on the member's state).
    for island in ["LiveCounters", "LikePopup", "SignupModal", "SignupPageForm", "ChatIsland", "LanderHost"] {
        assert!(seen.contains(island), "{island} on no page of the table: {seen:?}");
    }
}
