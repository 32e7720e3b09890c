//! `sqlx::migrate!` embeds the files of `migrations/` in the binary, but
//! cargo does not notice a new file there by itself: without this, a build
//! after adding a migration would silently run without it.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
