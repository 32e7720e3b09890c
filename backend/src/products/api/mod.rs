//! The products operations: `products.rs` (the spec's list call and the REST
//! operations under `/api/products`), `images.rs` (a product's images) and
//! `transfer.rs` (CSV import and export).

mod images;
mod products;
mod transfer;

pub use images::{IMAGE_CSP, ImageFile, ProductImagesApi, image_url, parse_image_name};
pub use products::{ProductList, ProductsApi};
pub use transfer::ProductTransferApi;
