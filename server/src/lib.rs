//! Vonk's server side as a library: configuration, database, the site cache, translations,
//! HTTP middleware and routes that are not Leptos server functions. No UI code lives here.

pub mod accounts;
pub mod backup;
pub mod chat;
pub mod clock;
pub mod complaints;
pub mod config;
pub mod counters;
pub mod credits;
pub mod db;
pub mod error;
pub mod figures;
pub mod files;
pub mod geoip;
pub mod http;
pub mod jobs;
pub mod landers;
pub mod lifecycle;
pub mod likes;
pub mod links;
pub mod locales;
pub mod mail;
pub mod media;
pub mod member_cache;
pub mod members;
pub mod metrics;
pub mod notifications;
pub mod payments;
pub mod postbacks;
pub mod privacy;
pub mod push;
pub mod reference_data;
pub mod regions;
pub mod seed;
pub mod sites;
pub mod staff;
pub mod state;
pub mod streams;
pub mod ttl_cache;
pub mod visibility;
pub mod visits;

pub use config::Config;
pub use db::Db;
pub use error::AppError;
pub use state::AppState;
