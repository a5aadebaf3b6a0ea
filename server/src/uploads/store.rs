//! Where uploaded files live: a local directory by default, or any S3-compatible bucket
//! (`UPLOAD_STORE=s3://bucket/prefix`, credentials and endpoint from the usual `AWS_*` variables).

use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use object_store::aws::AmazonS3Builder;
use object_store::local::LocalFileSystem;
use object_store::path::Path as StorePath;
use object_store::{ObjectStore, WriteMultipart};

#[derive(Clone)]
pub struct Store {
    inner: Arc<dyn ObjectStore>,
    prefix: String,
    /// Bytes buffered per upload before a part is written: small on disk, S3's 5 MiB minimum.
    part_bytes: usize,
}

impl Store {
    /// `setting`: `s3://bucket[/prefix]`, `file:///dir`, or `None` for `<data_dir>/uploads`.
    pub fn open(setting: Option<&str>, data_dir: &Path) -> Result<Self, String> {
        match setting {
            Some(url) if url.starts_with("s3://") => {
                let rest = &url["s3://".len()..];
                let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
                let s3 = AmazonS3Builder::from_env()
                    .with_bucket_name(bucket)
                    .build()
                    .map_err(|e| format!("UPLOAD_STORE: {e}"))?;
                Ok(Self {
                    inner: Arc::new(s3),
                    prefix: prefix.trim_matches('/').to_owned(),
                    part_bytes: 5 * 1024 * 1024,
                })
            }
            Some(url) => {
                let dir = url
                    .strip_prefix("file://")
                    .ok_or("UPLOAD_STORE must be s3:// or file://")?;
                Self::local(Path::new(dir))
            }
            None => Self::local(&data_dir.join("uploads")),
        }
    }

    fn local(dir: &Path) -> Result<Self, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let fs =
            LocalFileSystem::new_with_prefix(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Self {
            inner: Arc::new(fs),
            prefix: String::new(),
            part_bytes: 256 * 1024,
        })
    }

    fn path(&self, key: &str) -> StorePath {
        if self.prefix.is_empty() {
            StorePath::from(key)
        } else {
            StorePath::from(format!("{}/{key}", self.prefix))
        }
    }

    /// A streaming writer for `key`: `finish` makes the file appear whole, `abort` leaves nothing.
    pub async fn writer(&self, key: &str) -> object_store::Result<WriteMultipart> {
        let upload = self.inner.put_multipart(&self.path(key)).await?;
        Ok(WriteMultipart::new_with_chunk_size(upload, self.part_bytes))
    }

    /// Deletes the file; one already gone (another server's cleanup) is no error.
    pub async fn delete(&self, key: &str) -> object_store::Result<()> {
        match self.inner.delete(&self.path(key)).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(e),
        }
    }

    /// The file, or `None` when there is none by that key.
    pub async fn get(&self, key: &str) -> object_store::Result<Option<Bytes>> {
        match self.inner.get(&self.path(key)).await {
            Ok(found) => found.bytes().await.map(Some),
            Err(object_store::Error::NotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        }
    }
}
