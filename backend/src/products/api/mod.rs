//! The products operations: `products.rs` (the spec's list call and the REST
//! operations under `/api/products`) and `images.rs` (a product's images).

mod images;
mod products;

pub use images::ProductImagesApi;
pub use products::{ProductList, ProductsApi};
