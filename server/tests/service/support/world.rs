//! A seeded site with the services a members test needs, and findable members on it.

use std::sync::Arc;

use domain::account::{SignupForm, Tracking};
use domain::profile::{BasicsForm, LocationForm};
use domain::Locale;
use server::accounts::{Accounts, Member, SignupRequest};
use server::clock::Clock;
use server::locales::Catalog;
use server::mail::Outbox;
use server::members::Members;
use server::regions::Regions;
use server::Db;

pub const NOW: i64 = 1_795_348_800;

pub struct World {
    pub db: Db,
    pub accounts: Accounts,
    pub members: Members,
    /// The default site (`&w.site` also reads as its `SiteSettings`).
    pub site: server::sites::Site,
    pub media: tempfile::TempDir,
    pub mail: tempfile::TempDir,
}

pub async fn world(db: Db) -> World {
    server::seed::seed_if_empty(&db).await.unwrap();
    let site = server::sites::load_all(&db).await.unwrap().into_iter().find(|s| s.is_default).unwrap();
    let mail = tempfile::tempdir().unwrap();
    let media = tempfile::tempdir().unwrap();
    let store: server::media::Media = Arc::new(server::media::LocalStore::new(media.path()));
    let accounts =
        Accounts::new(db.clone(), Clock::fixed(NOW), Outbox::files(mail.path().to_path_buf()), Arc::new(Catalog::embedded()), super::links()).with_media(store);
    let members = Members::new(db.clone(), Arc::new(Regions::load(&db).await.unwrap()), std::time::Duration::ZERO);
    World { db, accounts, members, site, media, mail }
}

impl World {
    /// A visitor signed up as `email` called `name` (an adult with a good password), with this
    /// tracking and browser; answers the new account's id.
    pub async fn sign_up_with(&self, email: &str, name: &str, tracking: Tracking, client: server::accounts::Client) -> i64 {
        let form = SignupForm {
            email: email.into(),
            name: name.into(),
            password: "rode kater op het dak".into(),
            date_of_birth: "1990-05-17".into(),
            signup_message: String::new(),
        };
        let request = SignupRequest { site: &self.site, form, tracking, locale: Locale::Nl, base_url: "http://x".into(), client, invitation: None };
        self.accounts.signup(request).await.unwrap().0
    }

    /// A confirmed member with basics, found by search.
    pub async fn member(&self, email: &str, gender: &str) -> Member {
        let id = self.sign_up_with(email, "Anna", Tracking::default(), Default::default()).await;
        let basics = BasicsForm {
            gender: gender.into(),
            sexuality: "hetero".into(),
            location: LocationForm { country: "NL".into(), region: "NL-NH".into(), city: "Haarlem".into() },
        };
        self.members.save_basics(&self.site, id, &basics).await.unwrap();
        sqlx::query("UPDATE users SET status = 'active' WHERE id = $1").bind(id).execute(self.db.pool()).await.unwrap();
        sqlx::query("UPDATE profiles SET status = 'active' WHERE user_id = $1").bind(id).execute(self.db.pool()).await.unwrap();
        server::members::search::refresh_searchable(self.db.pool(), id).await.unwrap();
        self.reload(id).await
    }

    /// A member with a staff role and two-step login on.
    #[allow(dead_code)]
    pub async fn staff(&self, email: &str, role: domain::staff::StaffRole) -> Member {
        let member = self.member(email, "female").await;
        super::grant_staff(&self.db, &self.accounts, email, role).await;
        self.reload(member.id).await
    }

    pub async fn reload(&self, id: i64) -> Member {
        self.accounts.member(id).await.unwrap().unwrap()
    }

    pub async fn make_premium(&self, id: i64) -> Member {
        sqlx::query("UPDATE users SET paid_user = $1 WHERE id = $2").bind(true).bind(id).execute(self.db.pool()).await.unwrap();
        self.reload(id).await
    }
}
