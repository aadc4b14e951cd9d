//! The photo section of `/profile`: the member's photos with their review state, main and
//! private choices, deletion, and the upload form (a multipart server function: works without
//! JavaScript).

use domain::photo::{photo_url, OwnPhoto, PhotoStatus};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

use crate::features::account::server_fns::{DeletePhoto, MyPhotos, SetMainPhoto, SetPhotoPrivate, UploadPhoto};
use crate::i18n::use_i18n;
use crate::ui::forms::ActionError;
use leptos::server_fn::ServerFn;

#[component]
fn PhotoTile(photo: OwnPhoto) -> impl IntoView {
    let i18n = use_i18n();
    let id = photo.id;
    let (status_key, status_class) = match photo.status {
        PhotoStatus::UnderInspection => ("photos.status.under_inspection", "badge badge--wait"),
        PhotoStatus::Active => ("photos.status.active", "badge badge--ok"),
        PhotoStatus::Disabled => ("photos.status.disabled", "badge badge--bad"),
    };
    let can_be_main = !photo.is_main && !photo.private && photo.status != PhotoStatus::Disabled;
    view! {
        <li class="photo-tile" data-testid="own-photo" data-status=photo.status.code()>
            <img class="photo-tile__img" src=photo_url(id, true) alt="" loading="lazy" decoding="async"/>
            <div class="photo-tile__badges">
                {photo.is_main.then(|| view! { <span class="badge badge--main">{use_i18n().t("photos.main")}</span> })}
                {photo.private.then(|| view! { <span class="badge">{use_i18n().t("photos.private")}</span> })}
                <span class=status_class>{i18n.t(status_key)}</span>
            </div>
            <div class="photo-tile__actions">
                {can_be_main.then(|| view! {
                    <ActionForm action={ServerAction::<SetMainPhoto>::new()}>
                        <input type="hidden" name="id" value=id.to_string()/>
                        <button type="submit" class="btn btn--light btn--small">{use_i18n().t("photos.make_main")}</button>
                    </ActionForm>
                })}
                <ActionForm action={ServerAction::<SetPhotoPrivate>::new()}>
                    <input type="hidden" name="id" value=id.to_string()/>
                    {(!photo.private).then(|| view! { <input type="hidden" name="private" value="1"/> })}
                    <button type="submit" class="btn btn--light btn--small">{use_i18n().t(if photo.private { "photos.make_public" } else { "photos.make_private" })}</button>
                </ActionForm>
                <ActionForm action={ServerAction::<DeletePhoto>::new()}>
                    <input type="hidden" name="id" value=id.to_string()/>
                    <button type="submit" class="btn btn--light btn--small btn--danger-ghost" data-testid="delete-photo">{use_i18n().t("photos.delete")}</button>
                </ActionForm>
            </div>
        </li>
    }
}

#[component]
pub fn PhotoManager(photos: MyPhotos) -> impl IntoView {
    let i18n = use_i18n();
    let query = use_query_map().get_untracked();
    let saved = query.get("saved").is_some_and(|s| s == "photo");

    let count = photos.photos.len();
    let full = count >= photos.limit;
    let max_mb = photos.max_mb.to_string();
    let waiting = photos.photos.iter().any(|p| p.status == PhotoStatus::UnderInspection);
    view! {
        <section class="panel" id="photos" aria-labelledby="photos-title" data-testid="photos">
            <header class="panel__head">
                <h2 id="photos-title">{i18n.t("photos.title")}</h2>
                <span class="muted" data-testid="photo-count">{i18n.plural("photos.count", count as i64, &[("limit", &photos.limit.to_string())])}</span>
            </header>
            <div data-testid="photo-error">
                <crate::ui::forms::UrlError path=UploadPhoto::PATH/>
                <ActionError action={ServerAction::<SetMainPhoto>::new()}/>
                <ActionError action={ServerAction::<SetPhotoPrivate>::new()}/>
                <ActionError action={ServerAction::<DeletePhoto>::new()}/>
            </div>
            {saved.then(|| view! { <p class="notice notice--ok" role="status" data-testid="photo-saved">{use_i18n().t("photos.saved")}</p> })}
            {waiting.then(|| view! { <p class="muted">{use_i18n().t("photos.review_note")}</p> })}
            {(count > 0).then(|| view! {
                <ul class="photo-grid">{photos.photos.clone().into_iter().map(|p| view! { <PhotoTile photo=p/> }).collect_view()}</ul>
            })}
            {if full {
                let i18n = use_i18n();
                view! {
                    <div class="notice" data-testid="photo-limit">
                        <strong>{i18n.t("photo.limit_reached")}</strong>
                        {(!photos.premium).then(|| view! { " " <a href="/premium">{use_i18n().t("photos.premium_more")}</a> })}
                    </div>
                }
                .into_any()
            } else {
                let i18n = use_i18n();
                view! {
                    // Multipart: a plain form to the server function's address.
                    <form method="post" action=UploadPhoto::url() enctype="multipart/form-data" class="form upload-form" data-testid="upload-form">
                        <label class="upload-drop">
                            <span class="upload-drop__title">{i18n.t("photos.choose")}</span>
                            <span class="upload-drop__hint">{i18n.tf("photos.formats", &[("max", &max_mb)])}</span>
                            <input type="file" name="photo" accept="image/jpeg,image/png,image/webp" required/>
                        </label>
                        <label class="check">
                            <input type="checkbox" name="private" value="1"/>
                            <span>{i18n.t("photos.private_upload")}</span>
                        </label>
                        <button type="submit" class="btn btn--primary">{i18n.t("photos.upload")}</button>
                    </form>
                }
                .into_any()
            }}
        </section>
    }
}
