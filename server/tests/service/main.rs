//! The server's service tests against a real SQLite file and a real PostgreSQL, as one test
//! binary: one link instead of one per file (28 links took about 35 s of every test run on two
//! cores). Run one file's tests with `cargo test -p server --test service lifecycle::`.

#[macro_use]
mod support;

mod accounts;
mod age;
mod backup;
mod basics_and_mail;
mod chat;
mod chat_photos;
mod complaints;
mod credits;
mod digests;
mod figures;
mod invitations;
mod leaving;
mod lifecycle;
mod likes;
mod mail_headers;
mod media_s3;
mod member_cache;
mod member_file;
mod members;
mod moderation;
mod nodes;
mod notifications;
mod payments;
mod photos;
mod postbacks;
mod privacy;
mod push;
mod refunds;
mod resell;
mod schema;
mod sites;
mod spam;
mod splits;
mod staff;
mod staff_payments;
mod staff_roles;
mod upgrade;
mod visits;
