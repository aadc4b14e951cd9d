//! Likes and matches. A like is a row (liker, liked); a match is a like both ways. Likes only
//! go to visible members of the same site who have not blocked the liker; blocking removes the
//! likes between the two (see `Members::block`). The swipe game's likes of free members count
//! against a daily allowance ([`domain::likes::swipe_allowance`]).

use domain::account::Ymd;
use domain::likes::{swipe_allowance, Allowance, LikeKind, LikeSource};
use domain::search::MemberCard;
use domain::site::SiteSettings;
use sqlx::Row;

use crate::accounts::Member;
use crate::error::AppError;
use crate::members::search::CARD_COLUMNS;
use crate::members::Members;
use crate::notifications;
use crate::sites::Site;
use crate::visibility::{BLOCK_DIRECTIONS, NOT_BLOCKED};
use domain::notifications::NotificationKind;
use domain::{ApiError, ErrorCode};

/// What a like led to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LikeOutcome {
    /// The other member had already liked me: a match ('New like!').
    pub matched: bool,
    /// The like was not there before (a repeated like changes nothing and tells no one).
    pub new: bool,
}

/// One profile on a likes page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LikedCard {
    pub card: MemberCard,
    /// A received like the member has not looked at yet (SPEC §3 like_new).
    pub new: bool,
    pub at: i64,
    /// Whether the member likes this profile too: always for given likes and matches; for a
    /// received one, whether it was liked back (the card's heart).
    pub liked_back: bool,
}

/// Whether each of two members liked the other.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LikeState {
    pub i_liked: bool,
    pub they_liked: bool,
}

/// When the member's swipe likes of the last [`domain::likes::SWIPE_WINDOW_SECS`] were given.
async fn recent_swipes<'e, E>(executor: E, me: i64, now: i64) -> Result<Vec<i64>, sqlx::Error>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let rows: Vec<(i64,)> = sqlx::query_as("SELECT created_at FROM likes WHERE liker_id = $1 AND source = 'swipe' AND created_at > $2")
        .bind(me)
        .bind(now - domain::likes::SWIPE_WINDOW_SECS)
        .fetch_all(executor)
        .await?;
    Ok(rows.into_iter().map(|(t,)| t).collect())
}

#[derive(Clone, Debug)]
pub struct Likes {
    members: Members,
    /// Tells the liked member by mail; absent in tests that do not look at mails.
    mail: Option<LikeMail>,
    push: Option<crate::push::Pusher>,
    /// The liked members' digests of likes queued today.
    digests: crate::lifecycle::DigestNotes,
    /// The tellings started after a like, so tests can wait for them ([`Likes::settled`]).
    background: tokio_util::task::TaskTracker,
}

/// What sending like and match mails needs.
#[derive(Clone, Debug)]
struct LikeMail {
    accounts: crate::accounts::Accounts,
    /// `VONK_PUBLIC_URL`, the base of links for the default site.
    public_url: String,
}

impl Likes {
    pub fn new(members: Members) -> Likes {
        Likes { members, mail: None, push: None, digests: Default::default(), background: tokio_util::task::TaskTracker::new() }
    }

    /// Waits until every telling started so far (push, mail, the digest's job) is done.
    pub async fn settled(&self) {
        self.background.close();
        self.background.wait().await;
        self.background.reopen();
    }

    /// Every new like or match mails the liked member (through their preferences).
    pub fn with_mail(mut self, accounts: crate::accounts::Accounts, public_url: String) -> Likes {
        self.mail = Some(LikeMail { accounts, public_url });
        self
    }

    /// New likes and matches also go to the liked member's browsers by web push.
    pub fn with_push(mut self, push: crate::push::Pusher) -> Likes {
        self.push = Some(push);
        self
    }

    /// Tells `to` about a new like or match from `from`, in the background (a slow mail server
    /// must not hold up the answer): by web push where a browser of theirs takes it, else by
    /// mail (never both); and queues their digest of likes for today (`crate::lifecycle`).
    /// Repeated likes (`new == false`) tell no one.
    fn mail_after_like(&self, site: &Site, from: i64, from_name: &str, to: i64, outcome: LikeOutcome, now: i64) {
        if !outcome.new {
            return;
        }
        let (push, mail, db, digests) = (self.push.clone(), self.mail.clone(), self.members.db().clone(), self.digests.clone());
        let (settings, site_name) = (site.settings.clone(), site.name.clone());
        let base_url = mail.as_ref().map(|mail| site.base_url(&mail.public_url));
        let from_name = from_name.to_string();
        self.background.spawn(async move {
            if let Err(error) = digests.note_like(&db, &settings, to, now).await {
                tracing::warn!(%error, to, "could not queue the likes digest");
            }
            if crate::push::Pusher::reached(push.as_ref(), &site_name, to, from, crate::push::PushKind::Like { matched: outcome.matched }).await {
                return;
            }
            if let (Some(mail), Some(base_url)) = (mail, base_url) {
                if let Err(error) = mail.accounts.mail_like(&settings, &base_url, to, from, &from_name, outcome.matched).await {
                    tracing::warn!(%error, to, "could not send the like mail");
                }
            }
        });
    }

    fn pool(&self) -> &sqlx::AnyPool {
        self.members.db().pool()
    }

    /// Likes another visible member of the same site; the liked member is told (notification,
    /// and a mail when their preferences allow).
    pub async fn like(&self, site: &Site, me: &Member, other: i64, source: LikeSource, now: i64) -> Result<LikeOutcome, AppError> {
        let outcome = self.record_like(site, me, other, source, now).await?;
        // An unconfirmed account mails nobody: a throwaway address cannot send '{name} likes
        // you' mails to members (the like itself waits in the app).
        if me.is_confirmed() {
            self.mail_after_like(site, me.id, &me.name, other, outcome, now);
        }
        Ok(outcome)
    }

    async fn record_like(&self, site: &SiteSettings, me: &Member, other: i64, source: LikeSource, now: i64) -> Result<LikeOutcome, AppError> {
        if me.id == other {
            return Err(ErrorCode::NotFound.into());
        }
        // A like would show an invisible member to the one they like.
        if me.invisible {
            return Err(ErrorCode::InvisibleCannotLike.into());
        }
        let row = sqlx::query(&format!("SELECT p.searchable, {BLOCK_DIRECTIONS} FROM profiles p WHERE p.user_id = $2 AND p.site_id = $3"))
            .bind(me.id)
            .bind(other)
            .bind(site.id)
            .fetch_optional(self.pool())
            .await?;
        let Some(row) = row else { return Err(ErrorCode::NotFound.into()) };
        if row.try_get::<i64, _>("blocked_me")? > 0 {
            return Err(ErrorCode::BlockedByMember.into());
        }
        if !crate::db::flag(&row, "searchable")? || row.try_get::<i64, _>("blocked_by_me")? > 0 {
            return Err(ErrorCode::NotFound.into());
        }
        let mut tx = self.members.db().begin().await?;
        if source == LikeSource::Swipe && !me.paid_user {
            // Under the member's row lock, so that quick swipes cannot pass the allowance.
            sqlx::query("UPDATE users SET status = status WHERE id = $1").bind(me.id).execute(&mut *tx).await?;
            let allowance = swipe_allowance(false, &recent_swipes(&mut *tx, me.id, now).await?, now);
            if allowance.remaining == Some(0) {
                return Err(ApiError::new(ErrorCode::DailyLikesUsed).with("next_at", allowance.next_at.unwrap_or(now)).into());
            }
        }
        let inserted = sqlx::query(
            "INSERT INTO likes (liker_id, liked_id, created_at, seen, source) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (liker_id, liked_id) DO NOTHING",
        )
        .bind(me.id)
        .bind(other)
        .bind(now)
        .bind(false)
        .bind(source.code())
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        let back: Option<(i64,)> =
            sqlx::query_as("SELECT liker_id FROM likes WHERE liker_id = $1 AND liked_id = $2").bind(other).bind(me.id).fetch_optional(&mut *tx).await?;
        let matched = back.is_some();
        if inserted {
            if matched {
                notifications::record(&mut tx, other, NotificationKind::Match, Some(me.id), now).await?;
                notifications::record(&mut tx, me.id, NotificationKind::Match, Some(other), now).await?;
            } else {
                notifications::record(&mut tx, other, NotificationKind::Like, Some(me.id), now).await?;
            }
        }
        tx.commit().await?;
        Ok(LikeOutcome { matched, new: inserted })
    }

    /// Profiles for the swipe game: visible members of the genders the member looks for, not
    /// liked yet, not passed on in the last week, not blocked either way; most recently active first.
    pub async fn swipe_candidates(
        &self,
        site: &SiteSettings,
        me: i64,
        genders: &[&str],
        now: i64,
        today: Ymd,
        limit: i64,
    ) -> Result<Vec<MemberCard>, AppError> {
        let wanted: Vec<String> = genders.iter().filter(|g| ["male", "female"].contains(g)).map(|g| format!("'{g}'")).collect();
        // Gender codes come from our own list above, never from the request.
        let gender_clause = if wanted.is_empty() { String::new() } else { format!(" AND p.gender IN ({})", wanted.join(", ")) };
        let sql = format!(
            "SELECT {CARD_COLUMNS} FROM profiles p WHERE p.site_id = $2 AND p.searchable = $3 AND p.user_id <> $1{gender_clause} \
             AND NOT EXISTS (SELECT 1 FROM likes l WHERE l.liker_id = $1 AND l.liked_id = p.user_id) \
             AND NOT EXISTS (SELECT 1 FROM swipe_passes s WHERE s.user_id = $1 AND s.passed_id = p.user_id AND s.created_at > $4) \
             AND {NOT_BLOCKED} ORDER BY p.last_active DESC LIMIT {limit}"
        );
        let rows = sqlx::query(&sql).bind(me).bind(site.id).bind(true).bind(now - 7 * 86_400).fetch_all(self.pool()).await?;
        Ok(rows.iter().map(|r| self.members.card(r, today)).collect::<Result<_, _>>()?)
    }

    /// Suggestions for the match finder: visible members who fit both ways (of a gender the
    /// member looks for, looking for the member's gender), in the member's country when known,
    /// not liked yet, not blocked either way; most recently active first.
    pub async fn suggestions(&self, site: &SiteSettings, me: i64, today: Ymd, limit: i64) -> Result<Vec<MemberCard>, AppError> {
        let basics = self.members.basics(me).await?;
        let country = basics.country.clone().unwrap_or_default();
        let sql = fitting_sql(&basics, "NOT EXISTS (SELECT 1 FROM likes l WHERE l.liker_id = $1 AND l.liked_id = p.user_id)", limit);
        let rows = sqlx::query(&sql).bind(me).bind(site.id).bind(true).bind(country).fetch_all(self.pool()).await?;
        Ok(rows.iter().map(|r| self.members.card(r, today)).collect::<Result<_, _>>()?)
    }

    /// Likes several members at once (the match finder); members who cannot be liked any more
    /// are skipped. Returns the outcome of each like given, with the member's id.
    /// At most [`domain::notifications::BULK_LIKES_PER_DAY`] a day: the day's allowance is
    /// claimed with a compare-and-set before any like, so parallel calls cannot pass it.
    pub async fn like_many(&self, site: &Site, me: &Member, others: &[i64], source: LikeSource, now: i64) -> Result<Vec<(i64, LikeOutcome)>, AppError> {
        use domain::notifications::BULK_LIKES_PER_DAY;
        if me.invisible {
            return Err(ErrorCode::InvisibleCannotLike.into());
        }
        let day = now.div_euclid(86_400);
        let take = loop {
            let (used_day, raw): (i64, i64) =
                sqlx::query_as("SELECT bulk_likes_day, bulk_likes FROM users WHERE id = $1").bind(me.id).fetch_one(self.pool()).await?;
            let used = if used_day == day { raw } else { 0 };
            let take = (others.len() as i64).min(BULK_LIKES_PER_DAY - used).max(0);
            if take == 0 {
                return Err(ErrorCode::DailyLikesUsed.into());
            }
            // Claimed only if nobody used the allowance since it was read; else read again.
            let claimed = sqlx::query(
                "UPDATE users SET bulk_likes = CASE WHEN bulk_likes_day = $2 THEN bulk_likes + $3 ELSE $3 END, bulk_likes_day = $2 \
                 WHERE id = $1 AND bulk_likes_day = $4 AND bulk_likes = $5",
            )
            .bind(me.id)
            .bind(day)
            .bind(take)
            .bind(used_day)
            .bind(raw)
            .execute(self.pool())
            .await?
            .rows_affected()
                == 1;
            if claimed {
                break take;
            }
        };
        let mut out = Vec::new();
        for &other in &others[..take as usize] {
            match self.like(site, me, other, source, now).await {
                Ok(outcome) => out.push((other, outcome)),
                Err(AppError::Refused(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// Auto-like (SPEC §3, §7): while a new member is due one by the site's policy, a fitting
    /// operator-run profile likes them. Returns that profile, or `None` when none is due or none fits.
    pub async fn auto_like(&self, site: &Site, me: &Member, now: i64, today: Ymd) -> Result<Option<MemberCard>, AppError> {
        if site.auto_like.count == 0 {
            return Ok(None);
        }
        let basics = self.members.basics(me.id).await?;
        if basics.seeks().is_none() {
            return Ok(None);
        }
        let mut tx = self.members.db().begin().await?;
        // Under the member's row lock, so that two pages asking at once give one like.
        sqlx::query("UPDATE users SET status = status WHERE id = $1").bind(me.id).execute(&mut *tx).await?;
        let received: Vec<(i64,)> =
            sqlx::query_as("SELECT created_at FROM likes WHERE liked_id = $1 AND source = 'auto'").bind(me.id).fetch_all(&mut *tx).await?;
        let received: Vec<i64> = received.into_iter().map(|(t,)| t).collect();
        if !domain::notifications::auto_like_due(site.auto_like, me.signup_date, &received, now) {
            return Ok(None);
        }
        let sql = fitting_sql(
            &basics,
            "p.fictional = $3 AND NOT EXISTS (SELECT 1 FROM likes l WHERE (l.liker_id = $1 AND l.liked_id = p.user_id) OR (l.liker_id = p.user_id AND l.liked_id = $1))",
            1,
        );
        let row = sqlx::query(&sql).bind(me.id).bind(site.id).bind(true).bind(basics.country.clone().unwrap_or_default()).fetch_optional(&mut *tx).await?;
        let Some(row) = row else { return Ok(None) };
        let card = self.members.card(&row, today)?;
        sqlx::query("INSERT INTO likes (liker_id, liked_id, created_at, seen, source) VALUES ($1, $2, $3, $4, 'auto')")
            .bind(card.id)
            .bind(me.id)
            .bind(now)
            .bind(false)
            .execute(&mut *tx)
            .await?;
        notifications::record(&mut tx, me.id, NotificationKind::Like, Some(card.id), now).await?;
        tx.commit().await?;
        self.mail_after_like(site, card.id, &card.name, me.id, LikeOutcome { matched: false, new: true }, now);
        Ok(Some(card))
    }

    /// A pass in the swipe game: that profile stays out of the stack for a week.
    pub async fn pass(&self, me: i64, other: i64, now: i64) -> Result<(), AppError> {
        sqlx::query("INSERT INTO swipe_passes (user_id, passed_id, created_at) VALUES ($1, $2, $3) ON CONFLICT (user_id, passed_id) DO UPDATE SET created_at = excluded.created_at")
            .bind(me)
            .bind(other)
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Takes back my like (a match ends with it).
    pub async fn unlike(&self, me: i64, other: i64) -> Result<(), AppError> {
        sqlx::query("DELETE FROM likes WHERE liker_id = $1 AND liked_id = $2").bind(me).bind(other).execute(self.pool()).await?;
        Ok(())
    }

    /// The swipe game's allowance for this member now.
    pub async fn allowance(&self, me: &Member, now: i64) -> Result<Allowance, AppError> {
        Ok(swipe_allowance(me.paid_user, &recent_swipes(self.pool(), me.id, now).await?, now))
    }

    /// Whether I liked them and they liked me.
    pub async fn state(&self, me: i64, other: i64) -> Result<LikeState, AppError> {
        let rows: Vec<(i64,)> = sqlx::query_as("SELECT liker_id FROM likes WHERE (liker_id = $1 AND liked_id = $2) OR (liker_id = $2 AND liked_id = $1)")
            .bind(me)
            .bind(other)
            .fetch_all(self.pool())
            .await?;
        Ok(LikeState { i_liked: rows.iter().any(|(l,)| *l == me), they_liked: rows.iter().any(|(l,)| *l == other) })
    }

    /// Opening a profile clears its new-like flag (SPEC §4).
    pub async fn mark_seen(&self, me: i64, other: i64) -> Result<(), AppError> {
        sqlx::query("UPDATE likes SET seen = $1 WHERE liker_id = $2 AND liked_id = $3").bind(true).bind(other).bind(me).execute(self.pool()).await?;
        Ok(())
    }

    /// New likes from members I can still see (the top bar's pill).
    pub async fn new_likes(&self, me: i64) -> Result<i64, AppError> {
        let (n,): (i64,) = sqlx::query_as(&format!(
            "SELECT COUNT(*) FROM likes l JOIN profiles p ON p.user_id = l.liker_id WHERE l.liked_id = $1 AND l.seen = $2 AND p.searchable = $3 AND {NOT_BLOCKED}"
        ))
        .bind(me)
        .bind(false)
        .bind(true)
        .fetch_one(self.pool())
        .await?;
        Ok(n)
    }

    /// One likes page (`limit` cards after the first `offset`): received ones new first then
    /// newest; given and matches newest first; ties by member, so pages neither repeat nor skip
    /// a card. Hidden and blocked members are left out. The walk starts from the member's likes
    /// (`CROSS JOIN` fixes that order on SQLite; PostgreSQL plans it as an inner join): starting
    /// from the profiles instead read the whole site.
    /// Kept between requests while neither the member nor anyone on the page changed
    /// ([`crate::member_cache`]): a like, a block, a profile's name, photo or place all name
    /// the members concerned.
    pub async fn list(&self, site: &SiteSettings, me: i64, kind: LikeKind, today: Ymd, limit: i64, offset: i64) -> Result<Vec<LikedCard>, AppError> {
        let key = format!("likes/{}/{}/{limit}/{offset}/{}", site.id, kind.code(), today.iso());
        let read = || self.read_list(site, me, kind, today, limit, offset);
        self.members.member_cache().page_or_read(me, key, read, |list: &Vec<LikedCard>| Some(list.iter().map(|l| l.card.id).collect())).await
    }

    async fn read_list(&self, site: &SiteSettings, me: i64, kind: LikeKind, today: Ymd, limit: i64, offset: i64) -> Result<Vec<LikedCard>, AppError> {
        let sql = match kind {
            LikeKind::Received => format!(
                "SELECT {CARD_COLUMNS}, l.created_at AS liked_at, l.seen, \
                 EXISTS (SELECT 1 FROM likes back WHERE back.liker_id = $1 AND back.liked_id = l.liker_id) AS liked_back FROM likes l CROSS JOIN profiles p \
                 WHERE p.user_id = l.liker_id AND l.liked_id = $1 AND p.site_id = $2 AND p.searchable = $3 AND {NOT_BLOCKED} ORDER BY l.seen, l.created_at DESC, l.liker_id DESC LIMIT {limit} OFFSET {offset}"
            ),
            LikeKind::Given => format!(
                "SELECT {CARD_COLUMNS}, l.created_at AS liked_at, $3 AS seen, $3 AS liked_back FROM likes l CROSS JOIN profiles p \
                 WHERE p.user_id = l.liked_id AND l.liker_id = $1 AND p.site_id = $2 AND p.searchable = $3 AND {NOT_BLOCKED} ORDER BY l.created_at DESC, l.liked_id DESC LIMIT {limit} OFFSET {offset}"
            ),
            LikeKind::Matches => format!(
                "SELECT {CARD_COLUMNS}, CASE WHEN l.created_at > r.created_at THEN l.created_at ELSE r.created_at END AS liked_at, r.seen, $3 AS liked_back \
                 FROM likes l CROSS JOIN likes r CROSS JOIN profiles p \
                 WHERE r.liker_id = l.liked_id AND r.liked_id = l.liker_id AND p.user_id = l.liked_id AND l.liker_id = $1 AND p.site_id = $2 AND p.searchable = $3 AND {NOT_BLOCKED} ORDER BY liked_at DESC, p.user_id DESC LIMIT {limit} OFFSET {offset}"
            ),
        };
        let rows = sqlx::query(&sql).bind(me).bind(site.id).bind(true).fetch_all(self.pool()).await?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            out.push(LikedCard {
                card: self.members.card(&row, today)?,
                new: !crate::db::flag(&row, "seen")?,
                at: row.try_get("liked_at")?,
                liked_back: crate::db::flag(&row, "liked_back")?,
            });
        }
        Ok(out)
    }
}

/// Cards of visible members of the site who fit the member both ways, in the member's country when
/// known, not blocked either way, meeting `extra`; most recently active first. Binds: `$1` the
/// member, `$2` the site, `$3` true, `$4` the member's country ('' when unknown).
fn fitting_sql(basics: &crate::members::basics::ProfileBasics, extra: &str, limit: i64) -> String {
    format!(
        "SELECT {CARD_COLUMNS} FROM profiles p WHERE p.site_id = $2 AND p.searchable = $3 AND p.user_id <> $1{fit} \
         AND ($4 = '' OR p.country = $4) AND {extra} AND {NOT_BLOCKED} ORDER BY p.last_active DESC LIMIT {limit}",
        fit = fit_clause(basics)
    )
}

/// Members who fit both ways: of a gender the member looks for, and looking for the member's
/// gender. Codes come from the domain's enums, never from the request.
fn fit_clause(basics: &crate::members::basics::ProfileBasics) -> String {
    let (Some(mine), Some(seeks)) = (basics.gender(), basics.seeks()) else { return String::new() };
    let parts: Vec<String> = seeks
        .iter()
        .map(|g| {
            let sexualities: Vec<String> = domain::notifications::sexualities_seeking(*g, mine).iter().map(|s| format!("'{}'", s.code())).collect();
            format!("(p.gender = '{}' AND p.sexuality IN ({}))", g.code(), sexualities.join(", "))
        })
        .collect();
    format!(" AND ({})", parts.join(" OR "))
}
