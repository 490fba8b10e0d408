//! A shared cache over the Bazel HTTP/1.1 remote-cache protocol (issue
//! 28): `GET`/`PUT` on `<base>/ac/<64 hex>` (the action cache: a job's key
//! → an [`ActionResult`] naming each output with its digest) and
//! `<base>/cas/<sha256>` (the bytes), as bazel-remote, nginx with WebDAV
//! and the other servers of that protocol answer them.
//!
//! Nothing a server returns is trusted: an action result is decoded by
//! [`action_result`] within its [`action_result::MAX_BYTES`], and a blob is
//! read at most to the size its digest gives, hashed as it streams, and
//! refused unless its length and SHA-256 are the digest's; the caller
//! writes it where the job's own plan says, never where the server says.
//! Every request has a connect timeout and a whole-call deadline, so a
//! server that stops answering ends as an error, not a hang.
//!
//! 200, 201, 202 and 204 answer a `PUT`; 404 (and 204 with no body) is a
//! miss for a `GET`; everything else is an error naming the method, the
//! URL (without credentials) and the status.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest as _, Sha256};

use crate::formats::action_result::{self, ActionResult, Digest};
use crate::formats::hex;

/// How to reach the cache.
#[derive(Clone, Debug)]
pub struct Settings {
    /// `http://` or `https://`, optionally with `user:password@` (basic
    /// authentication) and a path prefix; no trailing `/` needed.
    pub url: String,
    /// Sent as `Authorization: Bearer …` when given (the CLI reads it from
    /// the environment).
    pub bearer_token: Option<String>,
    /// Connecting, and a server's answer to a request starting.
    pub connect_timeout: Duration,
    /// One whole request, body included.
    pub call_timeout: Duration,
    /// PEM certificates that sign the server's (in place of the web's
    /// roots), for a studio's own CA.
    pub tls_ca: Option<PathBuf>,
    /// A PEM client certificate (chain) and its PEM private key, for a
    /// server that asks for one (mTLS); both or neither.
    pub tls_client: Option<(PathBuf, PathBuf)>,
    /// A netrc file: the `login` and `password` of the entry whose
    /// `machine` is the URL's host (or its `default`) are sent as basic
    /// authentication when neither a token nor the URL gives credentials.
    pub netrc: Option<PathBuf>,
}

/// The most bytes kiln reads of a certificate, key or netrc file.
pub const MAX_CONFIG_FILE_BYTES: u64 = 1 << 20;

impl Settings {
    pub fn new(url: impl Into<String>) -> Settings {
        Settings {
            url: url.into(),
            bearer_token: None,
            connect_timeout: Duration::from_secs(10),
            call_timeout: Duration::from_secs(300),
            tls_ca: None,
            tls_client: None,
            netrc: None,
        }
    }
}

/// Why a request did not give what it asked for.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The URL is not one kiln can use.
    #[error("remote cache URL {url:?}: {why}")]
    Url { url: String, why: String },
    /// A certificate, key or netrc file that cannot be used.
    #[error("remote cache: {path}: {why}")]
    File { path: String, why: String },
    /// The connection failed or timed out.
    #[error("{method} {url}: {message}")]
    Transport {
        method: &'static str,
        url: String,
        message: String,
    },
    /// An answer the protocol does not allow for the request.
    #[error("{method} {url}: the server answered {status}")]
    Status {
        method: &'static str,
        url: String,
        status: u16,
    },
    /// What came back breaks a rule (a blob whose bytes are not its
    /// digest's, an action result that does not decode).
    #[error("{method} {url}: refused: {rule}")]
    Poisoned {
        method: &'static str,
        url: String,
        rule: String,
    },
    /// Writing a downloaded blob where the caller asked.
    #[error("writing {url}: {message}")]
    Write { url: String, message: String },
}

/// A remote cache client.
pub struct Remote {
    agent: ureq::Agent,
    /// Scheme, host and path prefix, without credentials or a final `/`.
    base: String,
    authorization: Option<String>,
}

impl Remote {
    pub fn new(settings: &Settings) -> Result<Remote, Error> {
        let bad = |why: &str| Error::Url {
            url: redact(&settings.url),
            why: why.into(),
        };
        let (scheme, rest) = settings
            .url
            .split_once("://")
            .ok_or_else(|| bad("no scheme: give http://… or https://…"))?;
        if scheme != "http" && scheme != "https" {
            return Err(bad("only http:// and https:// are spoken"));
        }
        let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let (userinfo, host) = match authority.rsplit_once('@') {
            Some((u, h)) => (Some(u), h),
            None => (None, authority),
        };
        if host.is_empty() {
            return Err(bad("no host"));
        }
        let basic = |user: &[u8]| {
            use base64::Engine as _;
            format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode(user)
            )
        };
        let authorization = match (&settings.bearer_token, userinfo, &settings.netrc) {
            (Some(token), _, _) => Some(format!("Bearer {token}")),
            (None, Some(user), _) => Some(basic(&percent_decode(user))),
            (None, None, Some(file)) => {
                let text = read_config_file(file)?;
                let text = String::from_utf8(text).map_err(|_| Error::File {
                    path: file.display().to_string(),
                    why: "not UTF-8 text".into(),
                })?;
                let name = host_name(host);
                netrc_login(&text, name)
                    .map(|(login, password)| basic(format!("{login}:{password}").as_bytes()))
            }
            (None, None, None) => None,
        };
        if scheme == "http" && (settings.tls_ca.is_some() || settings.tls_client.is_some()) {
            return Err(bad(
                "a CA or client certificate is given for an http:// URL: use https://",
            ));
        }
        let agent = ureq::Agent::config_builder()
            .tls_config(tls_config(settings)?)
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_connect(Some(settings.connect_timeout))
            .timeout_global(Some(settings.call_timeout))
            .build()
            .into();
        Ok(Remote {
            agent,
            base: format!("{scheme}://{host}{}", path.trim_end_matches('/')),
            authorization,
        })
    }

    fn url(&self, kind: &str, hash: &[u8; 32]) -> String {
        format!("{}/{kind}/{}", self.base, hex(hash))
    }

    fn get(&self, url: &str) -> Result<Option<ureq::Body>, Error> {
        let mut request = self.agent.get(url);
        if let Some(a) = &self.authorization {
            request = request.header("Authorization", a);
        }
        let response = request.call().map_err(|e| Error::Transport {
            method: "GET",
            url: url.into(),
            message: e.to_string(),
        })?;
        match response.status().as_u16() {
            200 => Ok(Some(response.into_body())),
            204 | 404 => Ok(None),
            status => Err(Error::Status {
                method: "GET",
                url: url.into(),
                status,
            }),
        }
    }

    fn put(&self, url: &str, len: u64, body: &mut dyn Read) -> Result<(), Error> {
        let mut request = self
            .agent
            .put(url)
            .header("Content-Length", len.to_string())
            .header("Content-Type", "application/octet-stream");
        if let Some(a) = &self.authorization {
            request = request.header("Authorization", a);
        }
        let response = request
            .send(ureq::SendBody::from_reader(body))
            .map_err(|e| Error::Transport {
                method: "PUT",
                url: url.into(),
                message: e.to_string(),
            })?;
        match response.status().as_u16() {
            200..=204 => Ok(()),
            status => Err(Error::Status {
                method: "PUT",
                url: url.into(),
                status,
            }),
        }
    }

    /// The action result stored under `key`, or `None` on a miss.
    pub fn get_action(&self, key: &[u8; 32]) -> Result<Option<ActionResult>, Error> {
        let url = self.url("ac", key);
        let Some(mut body) = self.get(&url)? else {
            return Ok(None);
        };
        let poisoned = |rule: String| refused(&url, rule);
        let mut bytes = Vec::new();
        body.with_config()
            .limit(action_result::MAX_BYTES as u64 + 1)
            .reader()
            .read_to_end(&mut bytes)
            .map_err(|e| poisoned(format!("the body did not arrive whole: {e}")))?;
        if bytes.is_empty() {
            // bazel-remote never stores an empty entry: a miss.
            return Ok(None);
        }
        let result = action_result::decode(&bytes).map_err(|e| poisoned(e.to_string()))?;
        let problems = action_result::validate(&result);
        if let Some(p) = problems.first() {
            return Err(poisoned(p.to_string()));
        }
        Ok(Some(result))
    }

    /// Streams the blob `digest` names into `to`, checking it: `Ok(false)`
    /// on a miss; an error when its bytes are not exactly the digest's
    /// (longer, shorter, or another SHA-256), after which what was
    /// written to `to` must be discarded.
    pub fn get_blob(&self, digest: &Digest, to: &mut dyn Write) -> Result<bool, Error> {
        let url = self.url("cas", &digest.sha256);
        let Some(mut body) = self.get(&url)? else {
            return Ok(false);
        };
        let poisoned = |rule: String| refused(&url, rule);
        let mut reader = body
            .with_config()
            .limit(digest.size.saturating_add(1))
            .reader();
        let mut hasher = Sha256::new();
        let mut got = 0u64;
        let mut buf = vec![0u8; 1 << 16];
        loop {
            let n = reader
                .read(&mut buf)
                .map_err(|e| poisoned(format!("the body stopped after {got} bytes: {e}")))?;
            if n == 0 {
                break;
            }
            got += n as u64;
            if got > digest.size {
                return Err(poisoned(format!(
                    "more than the {} bytes its digest gives",
                    digest.size
                )));
            }
            hasher.update(&buf[..n]);
            to.write_all(&buf[..n]).map_err(|e| Error::Write {
                url: url.clone(),
                message: e.to_string(),
            })?;
        }
        if got != digest.size {
            return Err(poisoned(format!(
                "{got} bytes, not the {} its digest gives",
                digest.size
            )));
        }
        let sha: [u8; 32] = hasher.finalize().into();
        if sha != digest.sha256 {
            return Err(poisoned(format!("its bytes' SHA-256 is {}", hex(&sha))));
        }
        Ok(true)
    }

    /// Stores `digest.size` bytes from `bytes` as the blob `digest` names.
    pub fn put_blob(&self, digest: &Digest, bytes: &mut dyn Read) -> Result<(), Error> {
        self.put(&self.url("cas", &digest.sha256), digest.size, bytes)
    }

    /// Stores `result` under `key` (after its blobs: a server may refuse
    /// an entry whose blobs it lacks).
    pub fn put_action(&self, key: &[u8; 32], result: &ActionResult) -> Result<(), Error> {
        let bytes = action_result::encode(result);
        self.put(&self.url("ac", key), bytes.len() as u64, &mut &bytes[..])
    }
}

/// ureq's TLS settings from the CA and client files `settings` name.
fn tls_config(settings: &Settings) -> Result<ureq::tls::TlsConfig, Error> {
    use ureq::tls::{ClientCert, PemItem, RootCerts, TlsConfig};
    let mut config = TlsConfig::builder();
    let pem_of = |path: &Path, bytes: &[u8]| -> Result<Vec<PemItem<'static>>, Error> {
        ureq::tls::parse_pem(bytes)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Error::File {
                path: path.display().to_string(),
                why: format!("not PEM: {e}"),
            })
    };
    let certificates = |path: &Path| -> Result<Vec<_>, Error> {
        let certs: Vec<_> = pem_of(path, &read_config_file(path)?)?
            .into_iter()
            .filter_map(|item| match item {
                PemItem::Certificate(c) => Some(c),
                _ => None,
            })
            .collect();
        if certs.is_empty() {
            return Err(Error::File {
                path: path.display().to_string(),
                why: "no PEM certificate (-----BEGIN CERTIFICATE-----) in it".into(),
            });
        }
        Ok(certs)
    };
    if let Some(ca) = &settings.tls_ca {
        config = config.root_certs(RootCerts::new_with_certs(&certificates(ca)?));
    }
    if let Some((cert, key)) = &settings.tls_client {
        let chain = certificates(cert)?;
        let key_pem = read_config_file(key)?;
        let key = pem_of(key, &key_pem)?
            .into_iter()
            .find_map(|item| match item {
                PemItem::PrivateKey(k) => Some(k),
                _ => None,
            })
            .ok_or_else(|| Error::File {
                path: key.display().to_string(),
                why: "no PEM private key (-----BEGIN PRIVATE KEY-----, or an RSA or EC one) in it"
                    .into(),
            })?;
        keys_match(cert, &chain, &key_pem)?;
        config = config.client_cert(Some(ClientCert::new_with_certs(&chain, key)));
    }
    Ok(config.build())
}

/// Refuses a client key (the PEM `key_pem`) that TLS cannot use or that
/// is not the certificate's (ureq checks this only when it connects, by
/// panicking).
fn keys_match(
    cert_file: &Path,
    chain: &[ureq::tls::Certificate<'static>],
    key_pem: &[u8],
) -> Result<(), Error> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    let bad = |why: String| Error::File {
        path: cert_file.display().to_string(),
        why,
    };
    let der = PrivateKeyDer::from_pem_slice(key_pem)
        .map_err(|e| bad(format!("its private key does not read: {e}")))?;
    let signing = rustls::crypto::ring::sign::any_supported_type(&der)
        .map_err(|e| bad(format!("its private key cannot sign for TLS: {e}")))?;
    let chain = chain
        .iter()
        .map(|c| CertificateDer::from(c.der().to_vec()))
        .collect();
    rustls::sign::CertifiedKey::new(chain, signing)
        .keys_match()
        .map_err(|e| {
            bad(format!(
                "the private key given is not this certificate's: {e}"
            ))
        })
}

/// The bytes of a regular file of at most [`MAX_CONFIG_FILE_BYTES`]
/// (opened as every input is: [`super::input::read_regular`]).
fn read_config_file(path: &Path) -> Result<Vec<u8>, Error> {
    super::input::read_regular(path, MAX_CONFIG_FILE_BYTES)
        .map(|r| r.bytes)
        .map_err(|e| Error::File {
            path: path.display().to_string(),
            why: e.to_string(),
        })
}

/// `host[:port]` (or `[v6]:port`) without its port.
fn host_name(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or(rest);
    }
    authority.split(':').next().unwrap_or(authority)
}

/// `%XX` escapes decoded (user information in a URL, as curl reads it).
fn percent_decode(text: &str) -> Vec<u8> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[k] == b'%'
            && let (Some(h), Some(l)) = (
                bytes.get(k + 1).and_then(|&b| hex(b)),
                bytes.get(k + 2).and_then(|&b| hex(b)),
            )
        {
            out.push((h * 16 + l) as u8);
            k += 3;
        } else {
            out.push(bytes[k]);
            k += 1;
        }
    }
    out
}

/// The `login` and `password` a netrc file gives `host`: its `machine`
/// entry, else its `default` entry (as curl and Bazel read the file:
/// tokens separated by white space, `macdef` bodies skipped to the next
/// empty line, `account` ignored). `None` when neither names a login.
pub fn netrc_login(text: &str, host: &str) -> Option<(String, String)> {
    // The tokens, a macro's body (from `macdef` to an empty line) left out.
    let mut tokens = Vec::new();
    let mut in_macro = false;
    for line in text.lines() {
        if in_macro {
            in_macro = !line.trim().is_empty();
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"macdef") {
            in_macro = true;
            continue;
        }
        tokens.extend(words);
    }
    // Each entry: the host it is for (`None`: default), its login and
    // password; the first for the host wins, then the first default.
    let mut entries: Vec<(Option<&str>, Option<&str>, Option<&str>)> = Vec::new();
    let mut k = 0;
    while k < tokens.len() {
        let value = tokens.get(k + 1).copied();
        match tokens[k] {
            "machine" => entries.push((Some(value.unwrap_or_default()), None, None)),
            "default" => {
                entries.push((None, None, None));
                k += 1;
                continue;
            }
            "login" | "password" | "account" => {
                if let Some(e) = entries.last_mut() {
                    match tokens[k] {
                        "login" => e.1 = value,
                        "password" => e.2 = value,
                        _ => {}
                    }
                }
            }
            _ => {
                k += 1;
                continue;
            }
        }
        k += 2;
    }
    let entry = entries
        .iter()
        .find(|e| e.0 == Some(host))
        .or_else(|| entries.iter().find(|e| e.0.is_none()))?;
    Some((
        entry.1?.to_string(),
        entry.2.unwrap_or_default().to_string(),
    ))
}

/// What a GET of `url` returned breaks `rule`.
fn refused(url: &str, rule: String) -> Error {
    Error::Poisoned {
        method: "GET",
        url: url.into(),
        rule,
    }
}

/// `url` without its user information (a password never reaches a log).
pub fn redact(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let end = rest.find('/').unwrap_or(rest.len());
            match rest[..end].rsplit_once('@') {
                Some((_, host)) => format!("{scheme}://…@{host}{}", &rest[end..]),
                None => url.to_string(),
            }
        }
        None => url.to_string(),
    }
}
