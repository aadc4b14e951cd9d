//! Search, profile pages and blocking. Search reads `profiles` alone through its indexes:
//! `searchable` folds together everything that hides a profile (not active, invisible, account
//! not active, basics missing) and is kept current by [`refresh_searchable`].

use domain::account::Ymd;
use domain::profile::Attribute;
use domain::rows::Flag;
use domain::search::{birth_date_window, MemberCard, ProfileView, SearchFilters, SearchResults, PAGE_SIZE};
use domain::site::SiteSettings;
use sqlx::any::AnyRow;
use sqlx::{Any, FromRow, Row};
use std::collections::HashSet;
use std::sync::Arc;

use super::search_cache::CardSet;
use super::Members;
use crate::db::Db;
use crate::error::AppError;
use crate::visibility::{BLOCK_DIRECTIONS, NOT_BLOCKED};

/// Recomputes whether others can find this member: an active account with a confirmed, filled-in
/// profile that is not invisible and holds no staff role (staff and operators are not members).
pub async fn refresh_searchable<'e, E>(executor: E, user_id: i64) -> Result<(), sqlx::Error>
where
    E: sqlx::Executor<'e, Database = Any>,
{
    sqlx::query(
        "UPDATE profiles SET searchable = CASE WHEN status = $4 AND gender IS NOT NULL AND EXISTS \
         (SELECT 1 FROM users u WHERE u.id = profiles.user_id AND u.status = $5 AND u.invisible = $2 AND u.staff_roles = 0) THEN $3 ELSE $2 END \
         WHERE user_id = $1",
    )
    .bind(user_id)
    .bind(false)
    .bind(true)
    .bind(domain::account::ProfileStatus::Active.as_str())
    .bind(domain::account::UserStatus::Active.as_str())
    .execute(executor)
    .await?;
    // Inside a transaction this runs before the commit: callers that hide a profile in one
    // invalidate again after committing.
    super::search_cache::invalidate();
    Ok(())
}

/// Writes the interest list into the `interests` table (reference data).
pub async fn sync_interests(db: &Db) -> Result<(), AppError> {
    let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM interests").fetch_one(db.pool()).await?;
    if count as usize == domain::profile::INTERESTS.len() {
        return Ok(());
    }
    let mut tx = db.begin().await?;
    for (i, (code, icon)) in domain::profile::INTERESTS.iter().enumerate() {
        sqlx::query("INSERT INTO interests (code, icon, position) VALUES ($1, $2, $3) ON CONFLICT (code) DO UPDATE SET icon = excluded.icon, position = excluded.position")
            .bind(*code)
            .bind(*icon)
            .bind(i as i64)
            .execute(&mut *tx)
            .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A card's row with whether the viewer liked it (1 or 0).
#[derive(FromRow)]
struct LikedRow {
    user_id: i64,
    liked: i64,
}

/// The ids of rows whose `liked` column (there for a viewer, see `query_cards`) is set.
fn liked_ids(rows: &[AnyRow], viewer: Option<i64>) -> Result<Vec<i64>, sqlx::Error> {
    let mut ids = Vec::new();
    for row in rows.iter().filter(|_| viewer.is_some()) {
        let row = LikedRow::from_row(row)?;
        if row.liked == 1 {
            ids.push(row.user_id);
        }
    }
    Ok(ids)
}

/// How many similar profiles a short first page gets.
const SIMILAR: usize = 12;

/// Cards past a page's end whose likes are read with the page's (for members who blocked some
/// of the page's cards).
const WINDOW_SLACK: usize = 8;

/// Members blocked (either way) beyond which a member's search skips the shared lists, which
/// would otherwise grow by as many cards.
const MAX_HIDDEN: usize = 64;

pub(crate) const CARD_COLUMNS: &str = "p.user_id, p.name, p.date_of_birth, p.city, p.region, p.main_thumb, p.fictional";

/// The columns of [`CARD_COLUMNS`].
#[derive(FromRow)]
pub(crate) struct CardRow {
    user_id: i64,
    name: String,
    date_of_birth: String,
    city: Option<String>,
    region: Option<String>,
    main_thumb: Option<String>,
    #[sqlx(try_from = "Flag")]
    fictional: bool,
}

/// A profile as its page shows it (`p.*`, the block directions beside); its attributes are
/// read by name, one column each.
#[derive(FromRow)]
struct ProfileRow {
    name: String,
    date_of_birth: String,
    gender: Option<String>,
    sexuality: Option<String>,
    country: Option<String>,
    region: Option<String>,
    city: Option<String>,
    main_photo: Option<String>,
    #[sqlx(try_from = "Flag")]
    fictional: bool,
    about: Option<String>,
    #[sqlx(try_from = "Flag")]
    searchable: bool,
    blocked_me: i64,
    blocked_by_me: i64,
}

/// The last opened profile's card and when it was opened.
#[derive(FromRow)]
struct OpenedRow {
    #[sqlx(flatten)]
    card: CardRow,
    last_opened_at: Option<i64>,
}

impl Members {
    /// A card from a row with [`CARD_COLUMNS`].
    pub(crate) fn card(&self, row: &AnyRow, today: Ymd) -> Result<MemberCard, sqlx::Error> {
        Ok(self.card_of(CardRow::from_row(row)?, today))
    }

    pub(crate) fn card_of(&self, row: CardRow, today: Ymd) -> MemberCard {
        MemberCard {
            id: row.user_id,
            name: row.name,
            age: Ymd::parse(&row.date_of_birth).map(|d| d.age_on(today)).unwrap_or(0),
            city: row.city.unwrap_or_default(),
            region: row.region.as_deref().and_then(|r| self.regions().get(r)).map(|r| r.name.clone()).unwrap_or_default(),
            thumb: row.main_thumb,
            fictional: row.fictional,
        }
    }

    /// One page of results, newest activity first, without the viewer and anyone blocked
    /// either way. A short first page comes with similar profiles (same gender and country,
    /// any region and age).
    ///
    /// The first pages come from a card list kept per filter set and shared by visitors and
    /// members ([`super::search_cache`]); each member's own blocks and likes are read fresh
    /// and applied to it, so a block or like shows at once. Deeper pages, and every page when
    /// the cache is off, query the database directly.
    pub async fn search(&self, site: &SiteSettings, viewer: Option<i64>, filters: &SearchFilters, today: Ymd) -> Result<Arc<SearchResults>, AppError> {
        if !self.search_cache.enabled() || filters.page > super::search_cache::SHARED_PAGES {
            return Ok(Arc::new(self.search_database(site, viewer, filters, today).await?));
        }
        let page_size = PAGE_SIZE as usize;
        let page = filters.page.max(1) as usize;
        let start = (page - 1) * page_size;
        let region = self.region_in_country(filters);
        let set = CardSet {
            gender: filters.gender.map(|g| g.code()),
            country: filters.country.clone(),
            region: region.map(str::to_string),
            ages: Some((filters.min_age, filters.max_age)),
        };
        // The viewer's blocks are not known yet: first a list long enough for a few of them.
        let mut list = self.shared_cards(site.id, &set, page * page_size + 2 + WINDOW_SLACK, today).await?;
        // A member's blocks and their likes among the cards this page will most likely show,
        // in one query. Hidden cards only push the page further down the list, never up.
        let window: HashSet<i64> = list.cards.iter().skip(start).take(page_size + 1 + WINDOW_SLACK).map(|c| c.id).collect();
        let own = match viewer {
            Some(me) => self.own_lists(me).await?,
            None => None,
        };
        let (mut hidden, mut liked) = match (viewer, &own) {
            (Some(_), Some((blocked, liked_all))) => ((**blocked).clone(), window.iter().copied().filter(|id| liked_all.contains(id)).collect()),
            (Some(me), None) => self.blocks_and_likes(me, &window, true).await?,
            (None, _) => (HashSet::new(), HashSet::new()),
        };
        if hidden.len() > MAX_HIDDEN {
            // Lists stay a few pages long: a member who blocked this many searches directly.
            return Ok(Arc::new(self.search_database(site, viewer, filters, today).await?));
        }
        hidden.extend(viewer);
        let need = page * page_size + 1 + hidden.len();
        if !list.complete && list.cards.len() < need {
            list = self.shared_cards(site.id, &set, need, today).await?;
        }
        let mut visible = list.cards.iter().filter(|c| !hidden.contains(&c.id));
        let results: Vec<MemberCard> = visible.by_ref().skip(start).take(page_size).cloned().collect();
        let has_more = visible.next().is_some();
        let mut similar = Vec::new();
        if page == 1 && results.len() < page_size / 2 && self.narrowed(site, filters) {
            hidden.extend(results.iter().map(|c| c.id));
            let set = CardSet { region: None, ages: None, ..set };
            let list = self.shared_cards(site.id, &set, SIMILAR + hidden.len(), today).await?;
            similar = list.cards.iter().filter(|c| !hidden.contains(&c.id)).take(SIMILAR).cloned().collect();
        }
        let shown = || results.iter().chain(&similar).map(|c| c.id);
        if let Some(me) = viewer {
            // Cards outside the window (many blocks, similar profiles): their likes now.
            let unknown: Vec<i64> = shown().filter(|id| !window.contains(id)).collect();
            match &own {
                Some((_, liked_all)) => liked.extend(unknown.into_iter().filter(|id| liked_all.contains(id))),
                None if !unknown.is_empty() => liked.extend(self.blocks_and_likes(me, &unknown.into_iter().collect(), false).await?.1),
                None => {}
            }
        }
        let liked = shown().filter(|id| liked.contains(id)).collect();
        Ok(Arc::new(SearchResults { results, has_more, similar, liked }))
    }

    /// The first cards (at least `need`, unless there are fewer) of a filter set for a visitor,
    /// from the shared list or, when it is missing, stale or too short, read anew into it.
    async fn shared_cards(&self, site_id: i64, set: &CardSet, need: usize, today: Ymd) -> Result<Arc<super::search_cache::CardList>, AppError> {
        let mut limit = need;
        if let Some(list) = self.search_cache.get(site_id, set, today) {
            if list.complete || list.cards.len() >= need {
                return Ok(list);
            }
            // Grows by at least half, so that paging on reads it a few times, not every page.
            limit = need.max(list.cards.len() * 3 / 2);
        }
        let generation = super::search_cache::SearchCache::generation();
        let births = set.ages.map(|(min, max)| birth_date_window(today, min, max));
        let rows = self
            .query_cards(
                site_id,
                None,
                set.gender,
                set.country.as_deref(),
                set.region.as_deref(),
                births.as_ref().map(|(a, u)| (a.as_str(), u.as_str())),
                &[],
                limit as i64,
                0,
            )
            .await?;
        let cards: Vec<MemberCard> = rows.iter().map(|r| self.card(r, today)).collect::<Result<_, _>>()?;
        let list = Arc::new(super::search_cache::CardList { complete: cards.len() < limit, cards });
        self.search_cache.put(site_id, set, today, generation, list.clone());
        Ok(list)
    }

    /// Everyone the member blocked or was blocked by, and everyone they liked, as kept between
    /// requests ([`crate::member_cache`]); `None` when the cache is off or they liked too many to
    /// keep (then each page reads what it shows).
    async fn own_lists(&self, me: i64) -> Result<Option<(Arc<HashSet<i64>>, Arc<HashSet<i64>>)>, AppError> {
        let Some(ticket) = self.member_cache.sync() else { return Ok(None) };
        if let Some(kept) = self.member_cache.blocks_and_likes(me) {
            return Ok(Some(kept));
        }
        let most = crate::member_cache::MAX_KEPT_LIKES as i64 + 1;
        let rows: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT blocked_id AS id, CAST(0 AS BIGINT) AS liked FROM blocks WHERE blocker_id = $1 \
             UNION ALL SELECT blocker_id, CAST(0 AS BIGINT) FROM blocks WHERE blocked_id = $1 \
             UNION ALL SELECT id, liked FROM (SELECT liked_id AS id, CAST(1 AS BIGINT) AS liked FROM likes WHERE liker_id = $1 LIMIT $2) l",
        )
        .bind(me)
        .bind(most)
        .fetch_all(self.db().pool())
        .await?;
        let (mut blocked, mut liked) = (HashSet::new(), HashSet::new());
        for (id, is_like) in rows {
            if is_like == 1 {
                liked.insert(id)
            } else {
                blocked.insert(id)
            };
        }
        if liked.len() as i64 >= most {
            return Ok(None);
        }
        let (blocked, liked) = (Arc::new(blocked), Arc::new(liked));
        self.member_cache.put_blocks_and_likes(ticket, me, blocked.clone(), liked.clone());
        Ok(Some((blocked, liked)))
    }

    /// Which of `ids` the member has liked and, with `blocks`, everyone they blocked or were
    /// blocked by: one query.
    async fn blocks_and_likes(&self, me: i64, ids: &HashSet<i64>, blocks: bool) -> Result<(HashSet<i64>, HashSet<i64>), AppError> {
        let mut parts = Vec::new();
        if blocks {
            parts.push(
                "SELECT blocked_id AS id, CAST(0 AS BIGINT) AS liked FROM blocks WHERE blocker_id = $1 \
                 UNION ALL SELECT blocker_id, CAST(0 AS BIGINT) FROM blocks WHERE blocked_id = $1"
                    .to_string(),
            );
        }
        if !ids.is_empty() {
            // Ids are numbers from our own cards, never text from the request.
            let list = ids.iter().map(|id| id.to_string()).collect::<Vec<_>>().join(",");
            parts.push(format!("SELECT liked_id AS id, CAST(1 AS BIGINT) AS liked FROM likes WHERE liker_id = $1 AND liked_id IN ({list})"));
        }
        let (mut blocked, mut liked) = (HashSet::new(), HashSet::new());
        if parts.is_empty() {
            return Ok((blocked, liked));
        }
        let rows: Vec<(i64, i64)> = sqlx::query_as(&parts.join(" UNION ALL ")).bind(me).fetch_all(self.db().pool()).await?;
        for (id, is_like) in rows {
            if is_like == 1 {
                liked.insert(id)
            } else {
                blocked.insert(id)
            };
        }
        Ok((blocked, liked))
    }

    /// The region filter, when it lies inside the country filter (otherwise it does not count).
    fn region_in_country<'f>(&self, filters: &'f SearchFilters) -> Option<&'f str> {
        filters.region.as_deref().filter(|r| self.regions().get(r).is_some_and(|reg| Some(&reg.country) == filters.country.as_ref()))
    }

    /// Whether the filters ask for less than gender and country (then a short first page gets
    /// similar profiles).
    fn narrowed(&self, site: &SiteSettings, filters: &SearchFilters) -> bool {
        self.region_in_country(filters).is_some() || filters.min_age > site.min_age || filters.max_age < domain::search::MAX_AGE
    }

    async fn search_database(&self, site: &SiteSettings, viewer: Option<i64>, filters: &SearchFilters, today: Ymd) -> Result<SearchResults, AppError> {
        let (after, until) = birth_date_window(today, filters.min_age, filters.max_age);
        let region = self.region_in_country(filters);
        let offset = (filters.page.saturating_sub(1) * PAGE_SIZE) as i64;
        let rows = self
            .query_cards(
                site.id,
                viewer,
                filters.gender.map(|g| g.code()),
                filters.country.as_deref(),
                region,
                Some((&after, &until)),
                &[],
                PAGE_SIZE as i64 + 1,
                offset,
            )
            .await?;
        let mut results: Vec<MemberCard> = rows.iter().map(|r| self.card(r, today)).collect::<Result<_, _>>()?;
        let has_more = results.len() > PAGE_SIZE as usize;
        results.truncate(PAGE_SIZE as usize);
        let mut liked = liked_ids(&rows[..results.len()], viewer)?;
        let mut similar = Vec::new();
        if filters.page == 1 && results.len() < PAGE_SIZE as usize / 2 && self.narrowed(site, filters) {
            let shown: Vec<i64> = results.iter().map(|c| c.id).collect();
            let rows =
                self.query_cards(site.id, viewer, filters.gender.map(|g| g.code()), filters.country.as_deref(), None, None, &shown, SIMILAR as i64, 0).await?;
            similar = rows.iter().map(|r| self.card(r, today)).collect::<Result<_, _>>()?;
            liked.extend(liked_ids(&rows, viewer)?);
        }
        Ok(SearchResults { results, has_more, similar, liked })
    }

    /// Rows of cards in last-active order; for a viewer with a `liked` column (1 or 0).
    async fn query_cards(
        &self,
        site_id: i64,
        viewer: Option<i64>,
        gender: Option<&str>,
        country: Option<&str>,
        region: Option<&str>,
        births: Option<(&str, &str)>,
        exclude: &[i64],
        limit: i64,
        offset: i64,
    ) -> Result<Vec<AnyRow>, AppError> {
        // The index that keeps the walk in last-active order for these filters. SQLite is told;
        // PostgreSQL's planner picks from its statistics.
        let index = match (region, country, gender) {
            (Some(_), _, _) => "profiles_search_region",
            (None, Some(_), _) => "profiles_search_country",
            (None, None, Some(_)) => "profiles_search_gender",
            (None, None, None) => "profiles_search_all",
        };
        let hint = if self.db().backend() == crate::db::Backend::Sqlite { format!(" INDEXED BY {index}") } else { String::new() };
        // A member's likes come with the cards (their like buttons), not from a second query.
        let liked = if viewer.is_some() {
            ", CAST(CASE WHEN EXISTS (SELECT 1 FROM likes l WHERE l.liker_id = $1 AND l.liked_id = p.user_id) THEN 1 ELSE 0 END AS BIGINT) AS liked"
        } else {
            ""
        };
        let mut sql = format!("SELECT {CARD_COLUMNS}{liked} FROM profiles p{hint} WHERE p.site_id = $2 AND p.searchable = $3 AND p.user_id <> $1");
        let mut n = 3;
        let mut next = |sql: &mut String, clause: &str| {
            n += 1;
            sql.push_str(&clause.replace('?', &format!("${n}")));
        };
        if gender.is_some() {
            next(&mut sql, " AND p.gender = ?");
        }
        if country.is_some() {
            next(&mut sql, " AND p.country = ?");
        }
        if region.is_some() {
            next(&mut sql, " AND p.region = ?");
        }
        if births.is_some() {
            next(&mut sql, " AND p.date_of_birth > ?");
            next(&mut sql, " AND p.date_of_birth <= ?");
        }
        for id in exclude {
            // Ids are numbers from our own query, never text from the request.
            sql.push_str(&format!(" AND p.user_id <> {id}"));
        }
        // Last: only rows that match everything else pay for the block lookups.
        sql.push_str(&format!(" AND {NOT_BLOCKED} ORDER BY p.last_active DESC LIMIT {limit} OFFSET {offset}"));
        let mut q = sqlx::query(&sql).bind(viewer.unwrap_or(0)).bind(site_id).bind(true);
        if let Some(g) = gender {
            q = q.bind(g);
        }
        if let Some(c) = country {
            q = q.bind(c);
        }
        if let Some(r) = region {
            q = q.bind(r);
        }
        if let Some((a, u)) = births {
            q = q.bind(a).bind(u);
        }
        Ok(q.fetch_all(self.db().pool()).await?)
    }

    /// A profile as `viewer` sees it: `None` when it does not exist on this site, is hidden
    /// (invisible, not active) or either member blocked the other. Members always see their own.
    pub async fn profile(&self, site: &SiteSettings, viewer: Option<i64>, id: i64, today: Ymd) -> Result<Option<ProfileView>, AppError> {
        let row = sqlx::query(&format!(
            "SELECT p.*, (u.age_verified_at IS NOT NULL) AS age_verified, {BLOCK_DIRECTIONS} FROM profiles p JOIN users u ON u.id = p.user_id WHERE p.user_id = $2 AND p.site_id = $3 AND u.status <> $4"
        ))
        .bind(viewer.unwrap_or(0))
        .bind(id)
        .bind(site.id)
        .bind(domain::account::UserStatus::Deleted.as_str())
        .fetch_optional(self.db().pool())
        .await?;
        let Some(row) = row else { return Ok(None) };
        let is_me = viewer == Some(id);
        let profile = ProfileRow::from_row(&row)?;
        // Someone I blocked stays reachable from their page so that I can unblock them.
        if !is_me && (!profile.searchable || profile.blocked_me > 0) {
            return Ok(None);
        }
        let shown = |field: &str| site.visible_profile_fields.iter().any(|f| f == field);
        let mut attributes = Vec::new();
        for a in Attribute::ALL {
            if let Some(v) = row.try_get::<Option<String>, _>(a.field())? {
                if shown(a.field()) {
                    attributes.push((a.field().to_string(), v));
                }
            }
        }
        let interests = if shown("interests") {
            sqlx::query_as::<_, (String, String)>(
                "SELECT i.code, i.icon FROM profile_interests pi JOIN interests i ON i.code = pi.interest WHERE pi.user_id = $1 ORDER BY i.position",
            )
            .bind(id)
            .fetch_all(self.db().pool())
            .await?
        } else {
            Vec::new()
        };
        Ok(Some(ProfileView {
            id,
            name: profile.name,
            age: Ymd::parse(&profile.date_of_birth).map(|d| d.age_on(today)).unwrap_or(0),
            gender: profile.gender.unwrap_or_default(),
            sexuality: profile.sexuality.unwrap_or_default(),
            country: profile.country.unwrap_or_default(),
            region: profile.region.as_deref().and_then(|r| self.regions().get(r)).map(|r| r.name.clone()).unwrap_or_default(),
            city: profile.city.unwrap_or_default(),
            photo: profile.main_photo,
            fictional: profile.fictional,
            attributes,
            interests,
            about: if site.visible_profile_notes { profile.about } else { None },
            blocked_by_me: profile.blocked_by_me > 0,
            is_me,
            age_verified: crate::db::flag(&row, "age_verified")?,
        }))
    }

    /// Profiles near this one (same site, gender and country) for the profile page.
    pub async fn related(&self, site: &SiteSettings, viewer: Option<i64>, profile: &ProfileView, today: Ymd) -> Result<Vec<MemberCard>, AppError> {
        let gender = (!profile.gender.is_empty()).then_some(profile.gender.as_str());
        let country = (!profile.country.is_empty()).then_some(profile.country.as_str());
        let rows = self.query_cards(site.id, viewer, gender, country, None, None, &[profile.id], 6, 0).await?;
        Ok(rows.iter().map(|r| self.card(r, today)).collect::<Result<_, _>>()?)
    }

    /// Keeps the last profile a member opened (SPEC §3 chat state: last opened profile and date).
    pub async fn remember_opened(&self, viewer: i64, profile: i64, now: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE users SET last_opened_profile = $1, last_opened_at = $2 WHERE id = $3")
            .bind(profile)
            .bind(now)
            .bind(viewer)
            .execute(self.db().pool())
            .await?;
        Ok(())
    }

    /// The last profile the member opened, while it is still visible to them.
    pub async fn last_opened(&self, site: &SiteSettings, viewer: i64, today: Ymd) -> Result<Option<(MemberCard, i64)>, AppError> {
        let ticket = self.member_cache.sync();
        if let Some(kept) = ticket.and_then(|_| self.member_cache.last_opened(viewer, today)) {
            return Ok(kept);
        }
        let opened = self.read_last_opened(site, viewer, today).await?;
        if let Some(ticket) = ticket {
            self.member_cache.put_last_opened(ticket, viewer, today, opened.clone());
        }
        Ok(opened)
    }

    async fn read_last_opened(&self, site: &SiteSettings, viewer: i64, today: Ymd) -> Result<Option<(MemberCard, i64)>, AppError> {
        let row = sqlx::query_as::<_, OpenedRow>(&format!(
            "SELECT {CARD_COLUMNS}, u.last_opened_at FROM users u JOIN profiles p ON p.user_id = u.last_opened_profile \
             WHERE u.id = $1 AND p.site_id = $2 AND p.searchable = $3 AND {NOT_BLOCKED}"
        ))
        .bind(viewer)
        .bind(site.id)
        .bind(true)
        .fetch_optional(self.db().pool())
        .await?;
        Ok(row.map(|row| (self.card_of(row.card, today), row.last_opened_at.unwrap_or(0))))
    }

    /// Blocks another member of the same site (SPEC §6): each disappears for the other.
    /// Blocks a member. Returns the conversation between the two that went with it, if any
    /// (the caller tells both members' open chats, see `Chat::removed_by_block`).
    pub async fn block(&self, site: &SiteSettings, me: i64, other: i64, now: i64) -> Result<Option<i64>, AppError> {
        if me == other {
            return Err(domain::ErrorCode::NotFound.into());
        }
        let exists: Option<(i64,)> = sqlx::query_as("SELECT user_id FROM profiles WHERE user_id = $1 AND site_id = $2")
            .bind(other)
            .bind(site.id)
            .fetch_optional(self.db().pool())
            .await?;
        if exists.is_none() {
            return Err(domain::ErrorCode::NotFound.into());
        }
        if self.blocked(other, me).await? {
            return Err(domain::ErrorCode::BlockedByMember.into());
        }
        // The block hides each from the other everywhere; likes, notifications and the conversation
        // between the two go with it (SPEC §6). Paid messages stay explained: their ledger rows
        // keep their references.
        let mut tx = self.db().begin().await?;
        sqlx::query("INSERT INTO blocks (blocker_id, blocked_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (blocker_id, blocked_id) DO NOTHING")
            .bind(me)
            .bind(other)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM likes WHERE (liker_id = $1 AND liked_id = $2) OR (liker_id = $2 AND liked_id = $1)")
            .bind(me)
            .bind(other)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM notifications WHERE (user_id = $1 AND actor_id = $2) OR (user_id = $2 AND actor_id = $1)")
            .bind(me)
            .bind(other)
            .execute(&mut *tx)
            .await?;
        let conversation: Option<(i64,)> = sqlx::query_as("DELETE FROM conversations WHERE low_id = $1 AND high_id = $2 RETURNING id")
            .bind(me.min(other))
            .bind(me.max(other))
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(conversation.map(|(id,)| id))
    }

    pub async fn unblock(&self, me: i64, other: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM blocks WHERE blocker_id = $1 AND blocked_id = $2").bind(me).bind(other).execute(self.db().pool()).await?;
        Ok(())
    }

    /// Whether `blocker` blocked `blocked`.
    pub async fn blocked(&self, blocker: i64, blocked: i64) -> Result<bool, AppError> {
        let row: Option<(i64,)> = sqlx::query_as("SELECT blocker_id FROM blocks WHERE blocker_id = $1 AND blocked_id = $2")
            .bind(blocker)
            .bind(blocked)
            .fetch_optional(self.db().pool())
            .await?;
        Ok(row.is_some())
    }
}
