//! What several nodes on one PostgreSQL database share: rate-limit counts. (The login lockout
//! lives on the account row and chat fan-out has its own test in `chat.rs`.) A SQLite database
//! serves one node, which counts in memory.

use crate::support;

use std::net::IpAddr;

use server::http::rate_limit::{Limit, RateLimiter, RateLimits};

const NOW: i64 = 1_795_348_800;

#[tokio::test]
async fn rate_limits_count_across_nodes_on_postgres() {
    let cluster = support::PgCluster::start();
    let (db_a, db_b) = (cluster.db().await, cluster.db().await);
    let limits = RateLimits::parse("login=5/60").unwrap();
    let node_a = RateLimiter::with_limits(1, limits.clone()).shared_through(&db_a);
    let node_b = RateLimiter::with_limits(1, limits).shared_through(&db_b);
    assert!(node_a.is_shared() && node_b.is_shared());
    let attacker = IpAddr::from([203, 0, 113, 9]);
    // Alternating nodes, as a load balancer would: five in the window in all, not five each.
    for i in 0..5 {
        let node = if i % 2 == 0 { &node_a } else { &node_b };
        assert!(node.allow(Limit::Login, attacker, NOW + i).await, "attempt {i}");
    }
    assert!(!node_a.allow(Limit::Login, attacker, NOW + 5).await);
    assert!(node_b.check(Limit::Login, attacker, NOW + 5).await.is_err());
    // Another address, another action, a member: their own counts.
    assert!(node_b.allow(Limit::Login, IpAddr::from([203, 0, 113, 10]), NOW + 5).await);
    assert!(node_b.allow(Limit::Signup, attacker, NOW + 5).await);
    assert!(node_a.check_member(Limit::ChatSend, 42, NOW).await.is_ok());
    // A new window starts over, on either node.
    assert!(node_b.allow(Limit::Login, attacker, NOW + 60).await);
    // IPv6 clients count per /64, across nodes too.
    let v6: IpAddr = "2001:db8:1:2::1".parse().unwrap();
    let same_64: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
    for _ in 0..5 {
        assert!(node_a.allow(Limit::Login, v6, NOW).await);
    }
    assert!(!node_b.allow(Limit::Login, same_64, NOW).await);

    // Ended windows are removed by the purge, current ones kept.
    assert_eq!(node_a.purge(NOW + 86_400 + 30).await.unwrap(), 4, "the four counts of the first window");
    let (left,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM rate_counters").fetch_one(db_a.pool()).await.unwrap();
    assert_eq!(left, 1, "the attacker's login count of the second window");
}

#[tokio::test]
async fn parallel_requests_on_two_nodes_get_no_more_than_the_limit() {
    let cluster = support::PgCluster::start();
    let (db_a, db_b) = (cluster.db().await, cluster.db().await);
    let limits = RateLimits::parse("signup=10/600").unwrap();
    let nodes = [RateLimiter::with_limits(1, limits.clone()).shared_through(&db_a), RateLimiter::with_limits(1, limits).shared_through(&db_b)];
    let ip = IpAddr::from([198, 51, 100, 7]);
    let tries = (0..40).map(|i| {
        let node = nodes[i % 2].clone();
        tokio::spawn(async move { node.allow(Limit::Signup, ip, NOW).await })
    });
    let mut allowed = 0;
    for t in tries.collect::<Vec<_>>() {
        allowed += usize::from(t.await.unwrap());
    }
    assert_eq!(allowed, 10);
}

#[tokio::test]
async fn a_sqlite_node_counts_in_its_own_memory() {
    let (db, _dir) = support::sqlite().await;
    let node = RateLimiter::with_limits(1, RateLimits::parse("login=2/60").unwrap()).shared_through(&db);
    assert!(!node.is_shared());
    let ip = IpAddr::from([192, 0, 2, 1]);
    assert!(node.allow(Limit::Login, ip, NOW).await && node.allow(Limit::Login, ip, NOW).await);
    assert!(!node.allow(Limit::Login, ip, NOW).await);
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM rate_counters").fetch_one(db.pool()).await.unwrap();
    assert_eq!(rows, 0);
}

#[tokio::test]
async fn a_settings_change_reaches_every_node_at_once_on_postgres() {
    let cluster = support::PgCluster::start();
    let (db_a, db_b) = (cluster.db().await, cluster.db().await);
    server::seed::seed_if_empty(&db_a).await.unwrap();
    // Caches that would not refresh by themselves for an hour: only the announcement moves them.
    let node_a = server::sites::SiteCache::load(db_a.clone()).await.unwrap();
    let node_b = server::sites::SiteCache::load(db_b.clone()).await.unwrap();
    let _refresh = (node_a.spawn_refresh(std::time::Duration::from_secs(3600)), node_b.spawn_refresh(std::time::Duration::from_secs(3600)));
    let _listen = (node_a.spawn_listen(&cluster.url).unwrap(), node_b.spawn_listen(&cluster.url).unwrap());
    let before = node_b.for_host(None).unwrap();
    // Both hear announcements once their LISTEN is in place.
    tokio::time::timeout(std::time::Duration::from_secs(10), async { tokio::join!(node_a.listening(), node_b.listening()) }).await.expect("both nodes listen");

    // A change made outside the app (as staff tools or psql would) on the database.
    sqlx::query("UPDATE sites SET support_phone = $1 WHERE id = $2").bind("+31 20 555 0199").bind(before.id).execute(db_a.pool()).await.unwrap();
    assert!(follows(&node_a, "+31 20 555 0199").await && follows(&node_b, "+31 20 555 0199").await, "both nodes follow within 5 s");
    assert_ne!(before.support_phone, "+31 20 555 0199");

    // SQLite has one node and no announcements: the periodic refresh does it.
    let (sqlite, _dir) = support::sqlite().await;
    assert!(server::sites::SiteCache::load(sqlite).await.unwrap().spawn_listen("sqlite::memory:").is_none());
}

async fn follows(node: &server::sites::SiteCache, phone: &str) -> bool {
    for _ in 0..50 {
        if node.for_host(None).unwrap().support_phone == phone {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    false
}
