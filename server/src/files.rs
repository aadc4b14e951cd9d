//! Only the site reads its files. The data directory holds password hashes, two-step secrets,
//! IBANs, phone numbers and every private message: the process creates everything with the
//! mode 0700 (folders) or 0600 (files) through its umask, tightens what an older version or
//! another tool left readable to others when it starts, and `vonk check` names any file that is
//! looser, a link, or not a plain file.
//!
//! Nothing here follows a symbolic link: a link is reported, never walked into or changed.

use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The bits nobody but the owner may have.
const OTHERS: u32 = 0o077;

/// Sets the process's umask so every folder and file it creates from now on (the database and
/// its WAL, media, mail and SMS outboxes, backups) is the owner's alone. Returns the old mask.
pub fn private_umask() -> u32 {
    // SAFETY: umask only swaps the process's file-mode mask; it cannot fail.
    unsafe { libc::umask(0o077) as u32 }
}

/// What in a folder is not as it should be.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Findings {
    /// Folders and files that others may read, write or enter, with their mode (`0o644`).
    pub loose: Vec<(String, u32)>,
    /// Symbolic links, hard-linked files, devices, pipes and sockets, with what they are.
    pub not_plain: Vec<(String, &'static str)>,
}

impl Findings {
    pub fn is_clean(&self) -> bool {
        self.loose.is_empty() && self.not_plain.is_empty()
    }
}

/// What kind of entry `meta` describes, unless it is a folder or a plain file with one name.
pub fn odd_kind(meta: &std::fs::Metadata) -> Option<&'static str> {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    if kind.is_symlink() {
        Some("a symbolic link")
    } else if kind.is_dir() {
        None
    } else if kind.is_file() {
        (meta.nlink() > 1).then_some("a hard link (a file with more than one name)")
    } else if kind.is_block_device() || kind.is_char_device() {
        Some("a device")
    } else if kind.is_fifo() {
        Some("a pipe")
    } else if kind.is_socket() {
        Some("a socket")
    } else {
        Some("not a plain file")
    }
}

/// Every entry under `root` (and `root` itself as ""), with its metadata, without following
/// links. A folder that cannot be read is an error.
fn entries(root: &Path) -> std::io::Result<Vec<(PathBuf, String, std::fs::Metadata)>> {
    let mut out = vec![(root.to_path_buf(), String::new(), std::fs::symlink_metadata(root)?)];
    let mut i = 0;
    while i < out.len() {
        if out[i].2.is_dir() {
            let dir = out[i].0.clone();
            for entry in std::fs::read_dir(&dir)? {
                let entry = entry?;
                let path = entry.path();
                let meta = match std::fs::symlink_metadata(&path) {
                    Ok(meta) => meta,
                    // Gone since the listing (a photo deleted, a WAL checkpointed).
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                    Err(e) => return Err(e),
                };
                let rel = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
                out.push((path, rel, meta));
            }
        }
        i += 1;
    }
    Ok(out)
}

fn shown(rel: &str) -> String {
    if rel.is_empty() {
        ".".to_string()
    } else {
        rel.to_string()
    }
}

/// Looks at every entry under `root`: modes others could use, and anything but folders and
/// plain files. A missing `root` has nothing to report.
pub fn inspect(root: &Path) -> std::io::Result<Findings> {
    let mut findings = Findings::default();
    if std::fs::symlink_metadata(root).is_err() {
        return Ok(findings);
    }
    for (_, rel, meta) in entries(root)? {
        if let Some(kind) = odd_kind(&meta) {
            findings.not_plain.push((shown(&rel), kind));
        } else if meta.permissions().mode() & OTHERS != 0 {
            findings.loose.push((shown(&rel), meta.permissions().mode() & 0o7777));
        }
    }
    findings.loose.sort();
    findings.not_plain.sort();
    Ok(findings)
}

/// Takes group and other permissions off every folder and plain file under `root`. Links are
/// left alone (changing one would change what it points to: a hard link in the data directory
/// may be another name of a system file); `inspect` names them. Returns how many it changed.
pub fn tighten(root: &Path) -> std::io::Result<usize> {
    if std::fs::symlink_metadata(root).is_err() {
        return Ok(0);
    }
    let mut changed = 0;
    for (path, _, meta) in entries(root)? {
        let mode = meta.permissions().mode();
        if odd_kind(&meta).is_some() || mode & OTHERS == 0 {
            continue;
        }
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode & 0o7700))?;
        changed += 1;
    }
    Ok(changed)
}

/// [`tighten`] at start, with a log line when it changed anything (and one when it could not).
pub fn tighten_at_start(root: &Path, what: &str) {
    match tighten(root) {
        Ok(0) => {}
        Ok(n) => {
            tracing::warn!(folder = %root.display(), changed = n, "{what}: took group and other permissions off {n} folders and files (only the site reads them now)")
        }
        Err(error) => tracing::error!(folder = %root.display(), %error, "{what}: could not tighten the permissions"),
    }
}

/// Creates `dir` and its missing parents with the mode 0700 (whatever the umask).
pub fn create_private_dir_all(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(dir)
}

/// Creates `path` (which must not exist) with the mode 0600 and writes `bytes` into it.
pub fn write_private_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = create_private_new(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Creates `path` (which must not exist) with the mode 0600.
pub fn create_private_new(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(path)
}

/// Opens a plain file for reading without following a link in its last name, and refuses
/// anything but a plain file with a single name.
pub fn open_plain(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK).open(path)?;
    let meta = file.metadata()?;
    if let Some(kind) = odd_kind(&meta) {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{kind}, not a plain file")));
    }
    if !meta.is_file() {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, "a folder, not a file"));
    }
    Ok((file, meta))
}

/// Which file an entry is: its (device, inode).
pub type FileId = (u64, u64);

/// An entry that is not a folder or a plain file: its path and what it is.
pub type NotPlain = (String, &'static str);

/// The plain files under `root` by path relative to it, each with its [`FileId`], or the first
/// entry that is not a folder or a plain file.
pub fn plain_files(root: &Path) -> Result<Vec<(String, FileId)>, NotPlain> {
    let all = entries(root).map_err(|_| (".".to_string(), "not a readable folder"))?;
    let mut files = Vec::new();
    for (_, rel, meta) in all {
        if let Some(kind) = odd_kind(&meta) {
            return Err((shown(&rel), kind));
        }
        if meta.is_file() {
            files.push((rel, (meta.dev(), meta.ino())));
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inspect_names_loose_modes_and_links_and_tighten_fixes_the_modes_only() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("data");
        std::fs::create_dir_all(root.join("media/public")).unwrap();
        std::fs::set_permissions(&root, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(root.join("media"), std::fs::Permissions::from_mode(0o700)).unwrap();
        std::fs::set_permissions(root.join("media/public"), std::fs::Permissions::from_mode(0o750)).unwrap();
        std::fs::write(root.join("vonk.db"), b"db").unwrap();
        std::fs::set_permissions(root.join("vonk.db"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let outside = dir.path().join("secret");
        std::fs::write(&outside, b"secret").unwrap();
        std::fs::set_permissions(&outside, std::fs::Permissions::from_mode(0o644)).unwrap();
        std::os::unix::fs::symlink(&outside, root.join("media/public/leak.txt")).unwrap();
        std::fs::hard_link(&outside, root.join("media/twin")).unwrap();

        let found = inspect(&root).unwrap();
        assert_eq!(found.loose, vec![(".".to_string(), 0o755), ("media/public".to_string(), 0o750), ("vonk.db".to_string(), 0o644)]);
        assert_eq!(found.not_plain.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>(), vec!["media/public/leak.txt", "media/twin"]);
        assert!(found.not_plain.iter().all(|(_, kind)| kind.contains("link")));
        assert!(plain_files(&root).is_err(), "a tree with links has no plain listing");

        assert_eq!(tighten(&root).unwrap(), 3, "the root, media/public and vonk.db");
        assert!(inspect(&root).unwrap().loose.is_empty());
        assert_eq!(std::fs::metadata(root.join("vonk.db")).unwrap().permissions().mode() & 0o777, 0o600);
        assert_eq!(std::fs::metadata(&outside).unwrap().permissions().mode() & 0o777, 0o644, "what a link points to, or another name of, is left alone");
        assert!(open_plain(&root.join("media/public/leak.txt")).is_err(), "a link is not opened");
        assert!(open_plain(&root.join("media/twin")).is_err(), "nor a file with two names");
        assert!(inspect(&dir.path().join("missing")).unwrap().is_clean());
    }

    #[test]
    fn private_files_and_folders_are_the_owners_whatever_the_umask() {
        let dir = tempfile::tempdir().unwrap();
        let nested = dir.path().join("a/b");
        create_private_dir_all(&nested).unwrap();
        write_private_new(&nested.join("f"), b"x").unwrap();
        assert_eq!(std::fs::metadata(dir.path().join("a")).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(std::fs::metadata(&nested).unwrap().permissions().mode() & 0o777, 0o700);
        assert_eq!(std::fs::metadata(nested.join("f")).unwrap().permissions().mode() & 0o777, 0o600);
        assert!(write_private_new(&nested.join("f"), b"y").is_err(), "an existing file is not overwritten");
    }
}
