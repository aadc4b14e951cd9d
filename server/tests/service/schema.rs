//! The two migration folders describe one schema: a fresh SQLite and a fresh PostgreSQL database
//! have the same tables, columns (with their nullability) and indexes. And the database layer's
//! rules that hold across the code: statuses are bound from enums, transactions take SQLite's
//! write lock up front.

use crate::support;

use std::collections::BTreeSet;

use server::Db;

type Columns = BTreeSet<(String, String, bool)>;

async fn sqlite_schema(db: &Db) -> (Columns, BTreeSet<(String, String)>) {
    let tables: Vec<(String,)> = sqlx::query_as("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'")
        .fetch_all(db.pool())
        .await
        .unwrap();
    let mut columns = Columns::new();
    let mut indexes = BTreeSet::new();
    for (table,) in tables {
        // `pk` columns are NOT NULL in PostgreSQL whatever the declaration says.
        let cols: Vec<(String, i64, i64)> =
            sqlx::query_as(&format!("SELECT name, \"notnull\", pk FROM pragma_table_info('{table}')")).fetch_all(db.pool()).await.unwrap();
        for (name, not_null, pk) in cols {
            columns.insert((table.clone(), name, not_null == 1 || pk > 0));
        }
        let idx: Vec<(String,)> =
            sqlx::query_as(&format!("SELECT name FROM pragma_index_list('{table}') WHERE origin = 'c'")).fetch_all(db.pool()).await.unwrap();
        for (name,) in idx {
            indexes.insert((table.clone(), name));
        }
    }
    (columns, indexes)
}

async fn postgres_schema(db: &Db) -> (Columns, BTreeSet<(String, String)>) {
    let cols: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT table_name::text, column_name::text, is_nullable::text FROM information_schema.columns \
         WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    let columns = cols.into_iter().map(|(t, c, nullable)| (t, c, nullable == "NO")).collect();
    // Indexes we created ourselves (not those behind primary keys and UNIQUE constraints).
    let idx: Vec<(String, String)> = sqlx::query_as(
        "SELECT i.tablename::text, i.indexname::text FROM pg_indexes i WHERE i.schemaname = 'public' AND i.tablename NOT LIKE '\\_sqlx%' \
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    (columns, idx.into_iter().collect())
}

#[tokio::test]
async fn sqlite_and_postgres_migrate_to_the_same_schema() {
    let (sqlite, _dir) = support::sqlite().await;
    let cluster = support::PgCluster::start();
    let postgres = cluster.db().await;
    let (lite_columns, lite_indexes) = sqlite_schema(&sqlite).await;
    let (pg_columns, pg_indexes) = postgres_schema(&postgres).await;
    assert!(lite_columns.len() > 50, "the SQLite schema was read ({} columns)", lite_columns.len());
    let only_lite: Vec<_> = lite_columns.difference(&pg_columns).collect();
    let only_pg: Vec<_> = pg_columns.difference(&lite_columns).collect();
    assert!(
        only_lite.is_empty() && only_pg.is_empty(),
        "columns (table, column, not null) differ:\n only SQLite: {only_lite:?}\n only PostgreSQL: {only_pg:?}"
    );
    let only_lite: Vec<_> = lite_indexes.difference(&pg_indexes).collect();
    let only_pg: Vec<_> = pg_indexes.difference(&lite_indexes).collect();
    assert!(only_lite.is_empty() && only_pg.is_empty(), "indexes differ:\n only SQLite: {only_lite:?}\n only PostgreSQL: {only_pg:?}");
    postgres.close().await;
}

/// Status values reach SQL as bound parameters from their enums (`UserStatus`, `ProfileStatus`,
/// `PhotoStatus`, `PaymentStatus`), never as literals a rename would miss.
#[test]
fn no_status_is_a_literal_in_sql() {
    fn walk(dir: &std::path::Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let source = std::fs::read_to_string(&path).unwrap();
                for (n, line) in source.lines().enumerate() {
                    let compact: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
                    if ["status = '", "status <> '", "status IN ('", "THEN 'paid'", "= 'paid'"].iter().any(|p| compact.contains(p)) {
                        found.push(format!("{}:{}", path.display(), n + 1));
                    }
                }
            }
        }
    }
    let mut found = Vec::new();
    walk(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut found);
    assert!(found.is_empty(), "status literals in SQL: {found:?}");
}

/// SQLite refuses at once ("database is locked", the busy timeout not consulted) a transaction
/// that has read and then wants to write while another connection holds the write lock. Under
/// load that is any two requests at once. `Db::begin` takes the lock up front, where SQLite waits
/// for it; this shows both halves.
#[tokio::test]
async fn a_transaction_that_reads_then_writes_waits_for_the_writer_before_it() {
    let (db, _dir) = support::sqlite().await;
    let mut holder = db.begin().await.unwrap();
    sqlx::query("INSERT INTO interests (code, icon, position) VALUES ('held', 'x', 900)").execute(&mut *holder).await.unwrap();

    // A plain (deferred) transaction: the read starts a snapshot, the write cannot wait.
    let mut deferred = db.pool().begin().await.unwrap();
    let _: (i64,) = sqlx::query_as("SELECT COUNT(*) FROM interests").fetch_one(&mut *deferred).await.unwrap();
    let refused = sqlx::query("INSERT INTO interests (code, icon, position) VALUES ('deferred', 'x', 901)").execute(&mut *deferred).await.unwrap_err();
    assert!(refused.to_string().contains("database is locked"), "{refused}");
    deferred.rollback().await.unwrap();

    // Through `Db::begin`: waits while the first writer finishes, then reads and writes.
    let second = db.clone();
    let waiting = tokio::spawn(async move {
        let mut tx = second.begin().await?;
        let (before,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM interests WHERE code = 'held'").fetch_one(&mut *tx).await?;
        sqlx::query("INSERT INTO interests (code, icon, position) VALUES ('second', 'x', 902)").execute(&mut *tx).await?;
        tx.commit().await?;
        Ok::<i64, sqlx::Error>(before)
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(!waiting.is_finished(), "the second writer waits for the first");
    holder.commit().await.unwrap();
    assert_eq!(waiting.await.unwrap().unwrap(), 1, "it saw the first writer's row");
    let (both,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM interests WHERE code IN ('held', 'second')").fetch_one(db.pool()).await.unwrap();
    assert_eq!(both, 2);
}

/// On a SQLite file, write transactions take turns on one connection of their own: writers
/// waiting for the lock hold none of the pool's connections (on a connection each, they would
/// sleep in SQLite's busy handler holding it), so reads go on meanwhile, and every waiting
/// writer gets its turn.
#[tokio::test]
async fn waiting_writers_leave_the_pool_to_readers() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::connect(&format!("sqlite://{}/turns.db", dir.path().display()), 2).await.unwrap();
    let mut holder = db.begin().await.unwrap();
    sqlx::query("INSERT INTO interests (code, icon, position) VALUES ('held', 'x', 900)").execute(&mut *holder).await.unwrap();
    let (started_tx, mut started) = tokio::sync::mpsc::unbounded_channel();
    let writers: Vec<_> = (0..5)
        .map(|i| {
            let (db, started_tx) = (db.clone(), started_tx.clone());
            tokio::spawn(async move {
                let _ = started_tx.send(());
                let mut tx = db.begin().await?;
                sqlx::query("INSERT INTO interests (code, icon, position) VALUES ($1, 'x', $2)")
                    .bind(format!("waiting-{i}"))
                    .bind(910 + i)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await
            })
        })
        .collect();
    for _ in 0..5 {
        started.recv().await.unwrap();
    }
    tokio::task::yield_now().await;
    // Both of the pool's connections are free for reads while five writers wait.
    let reads = async {
        let (a, b) = tokio::join!(
            sqlx::query_as::<_, (i64,)>("SELECT COUNT(*) FROM interests").fetch_one(db.pool()),
            sqlx::query_as::<_, (i64,)>("SELECT COUNT(*) FROM interests WHERE code = 'held'").fetch_one(db.pool()),
        );
        (a.unwrap().0, b.unwrap().0)
    };
    let (_, held) = tokio::time::timeout(std::time::Duration::from_secs(3), reads).await.expect("reads wait for no writer");
    assert_eq!(held, 0, "the holder's row is not committed yet");
    assert!(writers.iter().all(|w| !w.is_finished()), "the writers wait for the holder");
    holder.commit().await.unwrap();
    for writer in writers {
        writer.await.unwrap().unwrap();
    }
    let (all,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM interests WHERE code = 'held' OR code LIKE 'waiting-%'").fetch_one(db.pool()).await.unwrap();
    assert_eq!(all, 6);
}

/// Every transaction starts at `Db::begin` (see the test above for why).
#[test]
fn every_transaction_starts_at_db_begin() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf();
    let mut found = Vec::new();
    for folder in ["server/src", "app/src"] {
        let mut stack = vec![root.join(folder)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let source = std::fs::read_to_string(&path).unwrap();
                    for (n, line) in source.lines().enumerate() {
                        if (line.contains("pool().begin(") || line.contains("pool.begin(")) && !path.ends_with("db.rs") {
                            found.push(format!("{}:{}", path.display(), n + 1));
                        }
                    }
                }
            }
        }
    }
    assert!(found.is_empty(), "transactions not started with Db::begin: {found:?}");
}

/// A migration that shipped never changes: sites upgrade by running the ones they lack, so an
/// edited old migration would leave their schema different from a new site's (and sqlx refuses
/// to start on a changed checksum). `migrations/shipped.sha256` lists every migration with its
/// SHA-256; a new migration is added to the list with
/// `UPDATE_MIGRATION_LIST=1 cargo test -p server --test schema shipped_migrations_never_change`.
#[test]
fn shipped_migrations_never_change() {
    use sha2::{Digest, Sha256};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let mut current = std::collections::BTreeMap::new();
    for backend in ["sqlite", "postgres"] {
        for entry in std::fs::read_dir(root.join(backend)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "sql") {
                let sum: String = Sha256::digest(std::fs::read(&path).unwrap()).iter().map(|b| format!("{b:02x}")).collect();
                current.insert(format!("{backend}/{}", path.file_name().unwrap().to_string_lossy()), sum);
            }
        }
    }
    let list = root.join("shipped.sha256");
    if std::env::var("UPDATE_MIGRATION_LIST").is_ok() {
        let known: std::collections::BTreeMap<String, String> = std::fs::read_to_string(&list)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_once("  ").map(|(s, n)| (n.to_string(), s.to_string())))
            .collect();
        // Adds new files only: a changed checksum is never written over.
        let mut merged = known.clone();
        for (name, sum) in &current {
            merged.entry(name.clone()).or_insert_with(|| sum.clone());
        }
        std::fs::write(&list, merged.iter().map(|(n, s)| format!("{s}  {n}\n")).collect::<String>()).unwrap();
    }
    let shipped = std::fs::read_to_string(&list).expect("migrations/shipped.sha256");
    let mut listed = BTreeSet::new();
    for line in shipped.lines() {
        let (sum, name) = line.split_once("  ").expect("`<sha256>  <backend>/<file>` lines");
        listed.insert(name.to_string());
        match current.get(name) {
            Some(now) => assert_eq!(now, sum, "{name} shipped and was changed: put the change in a new migration"),
            None => panic!("{name} shipped and is gone: sites that ran it would not start"),
        }
    }
    let unlisted: Vec<&String> = current.keys().filter(|n| !listed.contains(*n)).collect();
    assert!(unlisted.is_empty(), "new migrations {unlisted:?}: add them with UPDATE_MIGRATION_LIST=1 (see this test)");
}
