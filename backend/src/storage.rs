//! Files: product images, label print outputs and batch-update uploads (until
//! their update ends), through the `object_store`
//! crate. Local files under `DATA_DIR` by default; an S3-compatible bucket
//! when `S3_BUCKET` is set (the rest of its settings come from the standard
//! `AWS_*` variables: `AWS_ENDPOINT`, `AWS_REGION`, `AWS_ACCESS_KEY_ID`,
//! `AWS_SECRET_ACCESS_KEY`, `AWS_ALLOW_HTTP`).
//!
//! Every key starts with `tenants/{tenant id}/`, built here from the caller's
//! tenant, never from input: a request can only name files of its own
//! tenant, and only through ids its tenant's rows hold.

use std::path::Path as FsPath;
use std::sync::Arc;

use futures_util::StreamExt;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{ObjectStore, PutPayload, WriteMultipart};
use tokio::io::AsyncReadExt;
use uuid::Uuid;

use crate::config::Settings;
use crate::tenancy::TenantRef;

#[derive(Clone, Debug)]
pub struct Storage {
    store: Arc<dyn ObjectStore>,
    /// `DATA_DIR` when files are local (no bucket).
    local_root: Option<std::path::PathBuf>,
}

/// The size of the parts a file is uploaded in.
const PART: usize = 8 * 1024 * 1024;

impl Storage {
    pub fn from_settings(settings: &Settings) -> anyhow::Result<Self> {
        let local_root = settings
            .s3_bucket
            .is_none()
            .then(|| settings.data_dir.clone());
        let store: Arc<dyn ObjectStore> = match &settings.s3_bucket {
            Some(bucket) => Arc::new(
                object_store::aws::AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()
                    .map_err(|e| anyhow::anyhow!("S3_BUCKET {bucket}: {e}"))?,
            ),
            None => {
                std::fs::create_dir_all(&settings.data_dir).map_err(|e| {
                    anyhow::anyhow!(
                        "cannot create DATA_DIR {}: {e}",
                        settings.data_dir.display()
                    )
                })?;
                Arc::new(LocalFileSystem::new_with_prefix(&settings.data_dir)?)
            }
        };
        Ok(Self { store, local_root })
    }

    /// The key of a tenant's file: `tenants/{tenant}/{area}/{id}.{ext}`.
    pub fn key(tenant: &TenantRef, area: &str, id: Uuid, ext: &str) -> Path {
        Path::from(format!("tenants/{}/{area}/{id}.{ext}", tenant.id))
    }

    pub async fn put(&self, key: &Path, bytes: Vec<u8>) -> object_store::Result<()> {
        self.store.put(key, PutPayload::from(bytes)).await?;
        Ok(())
    }

    /// Uploads a local file in parts (constant memory, whatever its size).
    pub async fn put_file(&self, key: &Path, file: &FsPath) -> anyhow::Result<()> {
        let reader = tokio::fs::File::open(file).await?;
        self.put_reader(key, reader, |_| {}).await
    }

    /// Uploads what `reader` gives, in parts (constant memory), showing each
    /// piece to `seen` on the way (to hash it, say).
    pub async fn put_reader(
        &self,
        key: &Path,
        mut reader: impl tokio::io::AsyncRead + Unpin,
        mut seen: impl FnMut(&[u8]),
    ) -> anyhow::Result<()> {
        let upload = self.store.put_multipart(key).await?;
        let mut writer = WriteMultipart::new_with_chunk_size(upload, PART);
        let mut buf = vec![0u8; 1024 * 1024];
        loop {
            let n = reader.read(&mut buf).await?;
            if n == 0 {
                break;
            }
            seen(&buf[..n]);
            writer.wait_for_capacity(2).await?;
            writer.write(&buf[..n]);
        }
        writer.finish().await?;
        Ok(())
    }

    /// The file as a stream of chunks, and its size.
    pub async fn get(&self, key: &Path) -> object_store::Result<(poem::Body, u64)> {
        let got = self.store.get(key).await?;
        let size = got.meta.size;
        let stream = got
            .into_stream()
            .map(|chunk| chunk.map_err(std::io::Error::other));
        Ok((poem::Body::from_bytes_stream(stream), size))
    }

    /// The file's own path when files are local: a reader can open it where
    /// it is instead of copying it.
    pub fn local_path(&self, key: &Path) -> Option<std::path::PathBuf> {
        self.local_root.as_ref().map(|root| {
            key.parts()
                .fold(root.clone(), |p, part| p.join(part.as_ref()))
        })
    }

    /// Copies the file to a local path (constant memory).
    pub async fn get_to_file(&self, key: &Path, local: &FsPath) -> anyhow::Result<()> {
        use tokio::io::AsyncWriteExt;
        let mut stream = self.store.get(key).await?.into_stream();
        let mut file = tokio::fs::File::create(local).await?;
        while let Some(chunk) = stream.next().await {
            file.write_all(&chunk?).await?;
        }
        file.flush().await?;
        Ok(())
    }

    /// Removes a file (nothing when it is not there).
    pub async fn delete(&self, key: &Path) -> object_store::Result<()> {
        match self.store.delete(key).await {
            Err(object_store::Error::NotFound { .. }) => Ok(()),
            other => other,
        }
    }
}
