//! The remote-cache client (`pipeline::remote`) against a fake server with
//! bazel-remote's rules (a PUT needs Content-Length; a CAS blob whose
//! SHA-256 is not its name is refused with 400; an AC entry must decode
//! and name only blobs the CAS holds, or a GET of it is a 404) and a
//! fault mode: wrong bytes under a hash, truncated and over-long bodies,
//! error statuses, a server that never answers, a TCP reset mid-body.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use kiln::formats::action_result::{self, ActionResult, Digest, OutputFile};
use kiln::pipeline::remote::{Error, Remote, Settings};
use sha2::{Digest as _, Sha256};

/// What the server does wrong.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fault {
    None,
    /// A blob GET answers other bytes of the same length.
    WrongBytes,
    /// A GET says its length and sends half, then closes.
    Truncated,
    /// A GET sends more than the blob.
    Longer,
    /// A GET says its length, sends half, then resets the connection (a
    /// TCP RST, not an orderly close: `SO_LINGER` of zero).
    Reset,
    /// Every request answers this status.
    Status(u16),
    /// Every PUT answered with this status (a read-only token), GETs served.
    RefuseWrites(u16),
    /// Reads the request and never answers.
    Hang,
}

#[derive(Default)]
struct Store {
    blobs: BTreeMap<String, Vec<u8>>,
    actions: BTreeMap<String, Vec<u8>>,
    requests: Vec<String>,
}

pub struct Server {
    pub url: String,
    store: Arc<Mutex<Store>>,
    fault: Arc<Mutex<Fault>>,
}

impl Server {
    pub fn start() -> Server {
        Server::listen("http", |stream, store, fault| {
            serve(stream, store, fault, reset)
        })
    }

    /// The same server over HTTPS with the test PKI's server certificate
    /// (`tests/corpus/tls`); with `clients_from` (a CA's PEM), it asks
    /// every client for a certificate that CA signed (mTLS).
    fn start_tls(clients_from: Option<&'static [u8]>) -> Server {
        use rustls::pki_types::pem::PemObject;
        use rustls::pki_types::{CertificateDer, PrivateKeyDer};
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ServerConfig::builder_with_provider(provider.clone())
            .with_safe_default_protocol_versions()
            .unwrap();
        let builder = match clients_from {
            None => builder.with_no_client_auth(),
            Some(ca) => {
                let mut roots = rustls::RootCertStore::empty();
                for c in CertificateDer::pem_slice_iter(ca) {
                    roots.add(c.unwrap()).unwrap();
                }
                let verifier = rustls::server::WebPkiClientVerifier::builder_with_provider(
                    roots.into(),
                    provider,
                )
                .build()
                .unwrap();
                builder.with_client_cert_verifier(verifier)
            }
        };
        let certs = CertificateDer::pem_slice_iter(TLS_SERVER_PEM)
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        let key = PrivateKeyDer::from_pem_slice(TLS_SERVER_KEY).unwrap();
        let config = Arc::new(builder.with_single_cert(certs, key).unwrap());
        Server::listen("https", move |tcp, store, fault| {
            let conn = rustls::ServerConnection::new(config.clone()).unwrap();
            let tls = rustls::StreamOwned::new(conn, tcp);
            serve(tls, store, fault, drop);
        })
    }

    /// Serves each connection on its own thread with `handle`.
    fn listen(
        scheme: &str,
        handle: impl Fn(TcpStream, &Mutex<Store>, Fault) + Send + Sync + 'static,
    ) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("{scheme}://{}/cache", listener.local_addr().unwrap());
        let store = Arc::new(Mutex::new(Store::default()));
        let fault = Arc::new(Mutex::new(Fault::None));
        let (s, f) = (store.clone(), fault.clone());
        let handle = Arc::new(handle);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let (s, f, h) = (s.clone(), f.clone(), handle.clone());
                std::thread::spawn(move || h(stream.unwrap(), &s, *f.lock().unwrap()));
            }
        });
        Server { url, store, fault }
    }

    fn set(&self, fault: Fault) {
        *self.fault.lock().unwrap() = fault;
    }

    fn requests(&self) -> Vec<String> {
        std::mem::take(&mut self.store.lock().unwrap().requests)
    }
}

fn sha(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

const TLS_CA: &[u8] = include_bytes!("../corpus/tls/ca.pem");
const TLS_SERVER_PEM: &[u8] = include_bytes!("../corpus/tls/server.pem");
const TLS_SERVER_KEY: &[u8] = include_bytes!("../corpus/tls/server.key");

fn answer(stream: &mut impl Write, status: u16, body: &[u8], length: usize) {
    let _ = write!(
        stream,
        "HTTP/1.1 {status} X\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n"
    );
    let _ = stream.write_all(body);
    let _ = stream.flush();
}

/// Ends `stream` with a TCP RST: a zero linger time makes close discard
/// what is unsent and reset the connection.
fn reset(stream: TcpStream) {
    use std::os::fd::AsRawFd;
    let linger = libc::linger {
        l_onoff: 1,
        l_linger: 0,
    };
    // SAFETY: a valid socket descriptor and a `linger` of the size given.
    let set = unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&raw const linger).cast(),
            std::mem::size_of::<libc::linger>() as libc::socklen_t,
        )
    };
    assert_eq!(set, 0, "setsockopt(SO_LINGER)");
    drop(stream);
}

/// Answers one request on `stream` (plain or TLS) by bazel-remote's rules
/// and `fault`; `reset` ends a stream for [`Fault::Reset`].
fn serve<S: Read + Write>(stream: S, store: &Mutex<Store>, fault: Fault, reset: fn(S)) {
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() || line.is_empty() {
        return;
    }
    let mut parts = line.split_whitespace();
    let (method, path) = (
        parts.next().unwrap_or("").to_string(),
        parts.next().unwrap_or("").to_string(),
    );
    let mut length = None;
    let mut auth = None;
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h).is_err() {
            return;
        }
        if h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse::<usize>().ok();
        }
        if let Some((k, v)) = h.split_once(':')
            && k.eq_ignore_ascii_case("authorization")
        {
            auth = Some(v.trim().to_string());
        }
    }
    let mut body = vec![0; length.unwrap_or(0)];
    if reader.read_exact(&mut body).is_err() {
        return;
    }
    store.lock().unwrap().requests.push(match auth {
        Some(a) => format!("{method} {path} ({a})"),
        None => format!("{method} {path}"),
    });
    match fault {
        Fault::Hang => {
            // Longer than any test runs: the client's deadline must end it.
            std::thread::sleep(Duration::from_secs(3600));
            return;
        }
        Fault::Status(s) => return answer(reader.get_mut(), s, b"", 0),
        Fault::RefuseWrites(s) if method == "PUT" => return answer(reader.get_mut(), s, b"", 0),
        _ => {}
    }
    let Some(rest) = path.strip_prefix("/cache/") else {
        return answer(reader.get_mut(), 404, b"", 0);
    };
    let (kind, name) = rest.split_once('/').unwrap_or(("", ""));
    let mut st = store.lock().unwrap();
    match (method.as_str(), kind) {
        ("PUT", _) if length.is_none() => answer(reader.get_mut(), 411, b"", 0),
        ("PUT", "cas") => {
            if crate::remote::hex(&sha(&body)) != name {
                return answer(reader.get_mut(), 400, b"", 0);
            }
            st.blobs.insert(name.into(), body);
            answer(reader.get_mut(), 200, b"", 0)
        }
        ("PUT", "ac") => match action_result::decode(&body) {
            Ok(r) if !r.output_files.is_empty() => {
                st.actions.insert(name.into(), body);
                answer(reader.get_mut(), 200, b"", 0)
            }
            _ => answer(reader.get_mut(), 400, b"", 0),
        },
        ("GET", "ac") => match st.actions.get(name) {
            Some(b) => {
                // An entry planted whole (a poisoned server) is served as
                // it is.
                let whole = action_result::decode(b).map_or(true, |r| {
                    r.output_files
                        .iter()
                        .all(|f| st.blobs.contains_key(&hex(&f.digest.sha256)))
                });
                if whole {
                    answer(reader.get_mut(), 200, b, b.len())
                } else {
                    answer(reader.get_mut(), 404, b"", 0)
                }
            }
            None => answer(reader.get_mut(), 404, b"", 0),
        },
        ("GET", "cas") => match st.blobs.get(name) {
            Some(b) => match fault {
                Fault::WrongBytes => {
                    let mut other = b.clone();
                    other[0] ^= 1;
                    answer(reader.get_mut(), 200, &other, other.len())
                }
                Fault::Truncated => answer(reader.get_mut(), 200, &b[..b.len() / 2], b.len()),
                Fault::Reset => {
                    answer(reader.get_mut(), 200, &b[..b.len() / 2], b.len());
                    // Time for the client to read the head and the half
                    // sent, so the reset usually lands mid-body (the test
                    // accepts either order).
                    std::thread::sleep(Duration::from_millis(200));
                    drop(st);
                    reset(reader.into_inner());
                }
                Fault::Longer => {
                    let mut more = b.clone();
                    more.extend_from_slice(b"extra");
                    answer(reader.get_mut(), 200, &more, more.len())
                }
                _ => answer(reader.get_mut(), 200, b, b.len()),
            },
            None => answer(reader.get_mut(), 404, b"", 0),
        },
        _ => answer(reader.get_mut(), 405, b"", 0),
    }
}

pub fn hex(bytes: &[u8]) -> String {
    kiln::formats::hex(bytes)
}

/// A client of `server` with the default timeouts (far past what a
/// loopback request needs on a loaded machine).
fn remote(server: &Server) -> Remote {
    Remote::new(&Settings::new(&server.url)).unwrap()
}

fn blob(bytes: &[u8]) -> Digest {
    Digest {
        sha256: sha(bytes),
        size: bytes.len() as u64,
    }
}

fn result_of(files: &[(&str, &[u8])]) -> ActionResult {
    ActionResult {
        output_files: files
            .iter()
            .map(|(path, bytes)| OutputFile {
                path: path.to_string(),
                digest: blob(bytes),
                is_executable: false,
                contents: Vec::new(),
            })
            .collect(),
        exit_code: 0,
    }
}

/// Blobs first, the entry last; read back whole, each request as the
/// protocol has it.
#[test]
fn blobs_and_an_entry_go_up_and_come_back() {
    let server = Server::start();
    let r = remote(&server);
    let a: Vec<u8> = (0..100_000u32).flat_map(|k| k.to_le_bytes()).collect();
    let b = b"second output".to_vec();
    let key = sha(b"a job's key");
    assert_eq!(r.get_action(&key).unwrap(), None, "a miss");
    for bytes in [&a, &b] {
        r.put_blob(&blob(bytes), &mut &bytes[..]).unwrap();
    }
    let result = result_of(&[("out/a.bin", &a), ("out/b.txt", &b)]);
    r.put_action(&key, &result).unwrap();
    assert_eq!(r.get_action(&key).unwrap(), Some(result.clone()));
    for (f, bytes) in result.output_files.iter().zip([&a, &b]) {
        let mut got = Vec::new();
        assert!(r.get_blob(&f.digest, &mut got).unwrap());
        assert_eq!(&got, bytes);
    }
    let requests = server.requests();
    let key_hex = hex(&key);
    assert_eq!(requests[0], format!("GET /cache/ac/{key_hex}"));
    assert_eq!(requests[3], format!("PUT /cache/ac/{key_hex}"));
    assert_eq!(requests.len(), 7, "{requests:?}");
    // A blob nobody stored: a miss.
    assert!(!r.get_blob(&blob(b"nobody"), &mut Vec::new()).unwrap());
}

/// An entry whose blobs the server lacks is a miss (bazel-remote's 404),
/// and an entry put before its blobs is never served whole.
#[test]
fn an_entry_without_its_blobs_is_a_miss() {
    let server = Server::start();
    let r = remote(&server);
    let key = sha(b"k");
    r.put_action(&key, &result_of(&[("out/x", b"never uploaded")]))
        .unwrap();
    assert_eq!(r.get_action(&key).unwrap(), None);
}

/// Every poisoned or broken answer is an error naming the URL and what
/// was wrong; nothing of a refused blob is accepted.
#[test]
fn what_a_server_gets_wrong_is_refused() {
    let server = Server::start();
    let r = remote(&server);
    let bytes: Vec<u8> = (0..10_000u32).map(|k| (k % 251) as u8).collect();
    let d = blob(&bytes);
    r.put_blob(&d, &mut &bytes[..]).unwrap();
    // The server checks what it is given: a blob under another's hash.
    let lie = Digest {
        sha256: sha(b"other"),
        size: bytes.len() as u64,
    };
    let e = r.put_blob(&lie, &mut &bytes[..]).unwrap_err();
    assert!(matches!(e, Error::Status { status: 400, .. }), "{e}");
    for (fault, want) in [
        (Fault::WrongBytes, "SHA-256 is"),
        (Fault::Truncated, "stopped after"),
        (Fault::Longer, "more than the 10000 bytes"),
    ] {
        server.set(fault);
        let e = r.get_blob(&d, &mut Vec::new()).unwrap_err();
        let text = e.to_string();
        assert!(
            matches!(e, Error::Poisoned { .. })
                && text.contains(want)
                && text.contains(&hex(&d.sha256)),
            "{fault:?}: {text}"
        );
    }
    // A reset mid-body: the blob is refused whenever the reset lands. If
    // the client has read the head and the half sent, the body stops
    // short; a reset that lands first (a slow client) discards them and
    // the call fails as a connection reset. Neither leaves a blob.
    server.set(Fault::Reset);
    let mut got = Vec::new();
    let e = r.get_blob(&d, &mut got).unwrap_err();
    let text = e.to_string();
    let stopped = matches!(e, Error::Poisoned { .. }) && text.contains("stopped after");
    let reset = matches!(e, Error::Transport { .. }) && text.contains("reset");
    assert!(
        (stopped || reset) && text.contains(&hex(&d.sha256)),
        "{text}"
    );
    assert!(got.len() < bytes.len(), "no whole blob");
    for status in [401, 500, 507] {
        server.set(Fault::Status(status));
        let e = r.get_action(&sha(b"k")).unwrap_err();
        assert!(
            matches!(e, Error::Status { status: s, .. } if s == status),
            "{e}"
        );
        let e = r.put_blob(&d, &mut &bytes[..]).unwrap_err();
        assert!(e.to_string().contains(&format!("answered {status}")), "{e}");
    }
    // Entries that do not decode, or name a path twice, planted on the
    // server: refused, naming the rule and its byte.
    server.set(Fault::None);
    r.put_blob(&blob(b"x"), &mut &b"x"[..]).unwrap();
    let twice = action_result::encode(&result_of(&[("out/a", b"x"), ("out/a", b"x")]));
    for (body, want) in [
        (vec![0x12, 5, 0], "at byte 2"),
        (vec![0x13], "groups"),
        (twice, "named twice"),
    ] {
        let key = sha(&body);
        server.store.lock().unwrap().actions.insert(hex(&key), body);
        let e = r.get_action(&key).unwrap_err();
        let text = e.to_string();
        assert!(
            matches!(e, Error::Poisoned { .. }) && text.contains(want),
            "{text}"
        );
    }
}

/// A server that never answers is an error at the call's deadline (here
/// a second), not a hang: the server waits an hour, and only the guard's
/// limit would end a call without a deadline.
#[test]
fn a_server_that_never_answers_is_an_error() {
    let server = Server::start();
    let mut s = Settings::new(&server.url);
    s.call_timeout = Duration::from_secs(1);
    let r = Remote::new(&s).unwrap();
    server.set(Fault::Hang);
    let e = crate::guard_support::no_hang("a call to a server that never answers", || {
        r.get_action(&sha(b"k")).unwrap_err()
    });
    assert!(matches!(e, Error::Transport { .. }), "{e}");
}

/// Credentials never reach a message; basic authentication is sent.
#[test]
fn credentials_stay_out_of_messages() {
    let server = Server::start();
    let with_user = server.url.replace("http://", "http://ci:s3cret@");
    let r = Remote::new(&Settings::new(&with_user)).unwrap();
    server.set(Fault::Status(401));
    let e = r.get_action(&sha(b"k")).unwrap_err().to_string();
    assert!(!e.contains("s3cret") && e.contains("answered 401"), "{e}");
    // Basic authentication: base64 of "ci:s3cret".
    assert!(server.requests()[0].ends_with("(Basic Y2k6czNjcmV0)"));
    let mut s = Settings::new(&server.url);
    s.bearer_token = Some("t0ken".into());
    let _ = Remote::new(&s).unwrap().get_action(&sha(b"k"));
    assert!(server.requests()[0].ends_with("(Bearer t0ken)"));
    assert_eq!(
        kiln::pipeline::remote::redact(&with_user),
        server.url.replace("http://", "http://…@")
    );
    for bad in ["ftp://x/y", "no-scheme", "http:///path"] {
        assert!(Remote::new(&Settings::new(bad)).is_err(), "{bad}");
    }
}

/// A file of the test PKI (`tests/corpus/tls`).
fn tls_file(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/tls")
        .join(name)
}

/// Over HTTPS: the server's certificate must be signed by the CA given
/// (the web's roots do not know a studio's CA, and another CA is not
/// it); a server asking for a client certificate (mTLS) is refused
/// without one and served with one.
#[test]
fn https_trusts_the_ca_given_and_presents_a_client_certificate() {
    let round_trip = |r: &Remote| -> Result<(), Error> {
        let bytes = b"over TLS".to_vec();
        r.put_blob(&blob(&bytes), &mut &bytes[..])?;
        let mut got = Vec::new();
        assert!(r.get_blob(&blob(&bytes), &mut got)?);
        assert_eq!(got, bytes);
        Ok(())
    };
    let transport = |e: Error, want: &str| {
        let text = e.to_string();
        assert!(
            matches!(e, Error::Transport { .. }) && text.contains(want),
            "{text}"
        );
    };
    let server = Server::start_tls(None);
    let mut s = Settings::new(&server.url);
    transport(
        round_trip(&Remote::new(&s).unwrap()).unwrap_err(),
        "UnknownIssuer",
    );
    s.tls_ca = Some(tls_file("other-ca.pem"));
    transport(
        round_trip(&Remote::new(&s).unwrap()).unwrap_err(),
        "UnknownIssuer",
    );
    s.tls_ca = Some(tls_file("ca.pem"));
    round_trip(&Remote::new(&s).unwrap()).unwrap();

    let mtls = Server::start_tls(Some(TLS_CA));
    let mut s = Settings::new(&mtls.url);
    s.tls_ca = Some(tls_file("ca.pem"));
    round_trip(&Remote::new(&s).unwrap()).unwrap_err();
    assert!(
        mtls.requests().is_empty(),
        "no request without a certificate"
    );
    s.tls_client = Some((tls_file("client.pem"), tls_file("client.key")));
    round_trip(&Remote::new(&s).unwrap()).unwrap();
    assert_eq!(mtls.requests().len(), 2);
    // A key that is not the certificate's is refused before connecting.
    s.tls_client = Some((tls_file("client.pem"), tls_file("server.key")));
    let e = Remote::new(&s).err().unwrap().to_string();
    assert!(
        e.contains("client.pem") && e.contains("not this certificate's"),
        "{e}"
    );
    // A certificate the server's CA did not sign is refused by the server.
    s.tls_client = Some((tls_file("other-client.pem"), tls_file("other-client.key")));
    round_trip(&Remote::new(&s).unwrap()).unwrap_err();
    assert!(mtls.requests().is_empty());
}

/// The files a TLS or netrc setting names are checked before any request:
/// each refusal names the file and what it lacks.
#[test]
fn tls_and_netrc_files_that_cannot_be_used_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a certificate").unwrap();
    let https = "https://127.0.0.1:1/cache";
    let refusal = |s: &Settings| match Remote::new(s) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted {s:?}"),
    };
    let mut s = Settings::new(https);
    s.tls_ca = Some(text.clone());
    let e = refusal(&s);
    assert!(
        e.contains("notes.txt") && e.contains("no PEM certificate"),
        "{e}"
    );
    s.tls_ca = Some(dir.path().to_path_buf());
    assert!(refusal(&s).contains("not a regular file"));
    s.tls_ca = Some(dir.path().join("missing.pem"));
    assert!(refusal(&s).contains("missing.pem"));
    let big = dir.path().join("big.pem");
    std::fs::write(&big, vec![b'A'; (1 << 20) + 1]).unwrap();
    s.tls_ca = Some(big);
    assert!(refusal(&s).contains("more than the 1048576 bytes"));
    let mut s = Settings::new(https);
    s.tls_client = Some((tls_file("client.pem"), tls_file("client.pem")));
    let e = refusal(&s);
    assert!(
        e.contains("client.pem") && e.contains("no PEM private key"),
        "{e}"
    );
    let mut s = Settings::new(https.replace("https", "http"));
    s.tls_ca = Some(tls_file("ca.pem"));
    assert!(refusal(&s).contains("use https://"));
    let mut s = Settings::new(https);
    let binary = dir.path().join("netrc");
    std::fs::write(&binary, [0xff, 0xfe]).unwrap();
    s.netrc = Some(binary);
    assert!(refusal(&s).contains("not UTF-8"));
}

/// A netrc file's entry for the cache's host gives basic authentication
/// (its `default` entry any other host); a token or the URL's own user
/// information comes first; `%XX` escapes in the URL's are decoded.
#[test]
fn a_netrc_entry_or_the_urls_user_information_gives_basic_authentication() {
    use kiln::pipeline::remote::netrc_login;
    let pair = |l: &str, p: &str| Some((l.to_string(), p.to_string()));
    let text = "machine build.example login ci password s3cret\n\
                machine 127.0.0.1\n  login dev\n  password\n  hunter2\n\
                macdef init\nmachine 127.0.0.1 login macro password body\n\n\
                default login anyone password guest\n";
    assert_eq!(netrc_login(text, "build.example"), pair("ci", "s3cret"));
    assert_eq!(netrc_login(text, "127.0.0.1"), pair("dev", "hunter2"));
    assert_eq!(netrc_login(text, "elsewhere"), pair("anyone", "guest"));
    assert_eq!(netrc_login("machine a password p", "a"), None);
    assert_eq!(netrc_login("machine a login u", "a"), pair("u", ""));
    assert_eq!(netrc_login("", "a"), None);
    // The first entry for a host wins, as curl reads the file.
    assert_eq!(
        netrc_login("machine a login one\nmachine a login two", "a"),
        pair("one", "")
    );

    let server = Server::start();
    let dir = tempfile::tempdir().unwrap();
    let netrc = dir.path().join("netrc");
    std::fs::write(&netrc, text).unwrap();
    let mut s = Settings::new(&server.url);
    s.netrc = Some(netrc);
    let _ = Remote::new(&s).unwrap().get_action(&sha(b"k"));
    // base64 of "dev:hunter2".
    assert!(server.requests()[0].ends_with("(Basic ZGV2Omh1bnRlcjI=)"));
    s.url = server.url.replace("http://", "http://ci:p%40ss%3Aword@");
    let _ = Remote::new(&s).unwrap().get_action(&sha(b"k"));
    // base64 of "ci:p@ss:word": the URL's, decoded, before the netrc's.
    assert!(server.requests()[0].ends_with("(Basic Y2k6cEBzczp3b3Jk)"));
    s.bearer_token = Some("t0ken".into());
    let _ = Remote::new(&s).unwrap().get_action(&sha(b"k"));
    assert!(server.requests()[0].ends_with("(Bearer t0ken)"));
}

/// The flags from the command line: a build over HTTPS with mTLS stores
/// every shared job and a fresh clone restores them; a client certificate
/// without its key is a usage error naming both flags.
#[test]
fn kiln_build_uses_the_tls_flags() {
    use crate::cli_support::Project;
    let server = Server::start_tls(Some(TLS_CA));
    let (ca, cert, key) = (
        tls_file("ca.pem"),
        tls_file("client.pem"),
        tls_file("client.key"),
    );
    let tls = |p: &Project, extra: &[&str]| {
        let mut args = vec![
            "--remote-cache",
            &server.url,
            "--remote-cache-strict",
            "--remote-cache-ca",
            ca.to_str().unwrap(),
            "--remote-cache-client-cert",
            cert.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        p.build_json(&args)
    };
    let a = Project::demo();
    let (report, out) = tls(&a, &["--remote-cache-client-key", key.to_str().unwrap()]);
    assert!(out.status.success(), "{report}");
    let b = Project::demo();
    let (report, out) = tls(&b, &["--remote-cache-client-key", key.to_str().unwrap()]);
    assert!(out.status.success(), "{report}");
    assert_eq!(
        report["totals"]["restored"].as_u64(),
        Some(shared_jobs(&report))
    );
    assert_eq!(outputs(&b), outputs(&a));
    let (report, out) = tls(&Project::demo(), &[]);
    assert_eq!(out.status.code(), Some(2), "{report}");
    let e = crate::cli_support::stderr(&out);
    assert!(
        e.contains("--remote-cache-client-cert and --remote-cache-client-key go together"),
        "{e}"
    );
}

/// nginx from Debian's packages, its WebDAV module taking the PUTs, as a
/// studio runs it for Bazel: started in `dir` on a free port of
/// 127.0.0.1, stopped when dropped.
struct Nginx {
    child: std::process::Child,
    url: String,
}

impl Drop for Nginx {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn nginx(dir: &std::path::Path) -> Nginx {
    nginx_with(dir, false)
}

/// [`nginx`]; with `mtls`, over HTTPS with the test PKI's server
/// certificate, asking every client for a certificate its CA signed.
fn nginx_with(dir: &std::path::Path, mtls: bool) -> Nginx {
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    std::fs::create_dir_all(dir.join("www/cache")).unwrap();
    std::fs::create_dir_all(dir.join("tmp")).unwrap();
    let d = dir.display();
    let (scheme, tls) = if mtls {
        let f = |name: &str| tls_file(name).display().to_string();
        (
            "https",
            format!(
                " ssl;\n    ssl_certificate {};\n    ssl_certificate_key {};\n    ssl_client_certificate {};\n    ssl_verify_client on",
                f("server.pem"),
                f("server.key"),
                f("ca.pem")
            ),
        )
    } else {
        ("http", String::new())
    };
    let conf = format!(
        "daemon off;\nmaster_process off;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log;\n\
         events {{}}\n\
         http {{\n  access_log off;\n  client_body_temp_path {d}/tmp;\n  proxy_temp_path {d}/tmp;\n  fastcgi_temp_path {d}/tmp;\n  uwsgi_temp_path {d}/tmp;\n  scgi_temp_path {d}/tmp;\n\
           server {{\n    listen 127.0.0.1:{port}{tls};\n    root {d}/www;\n    client_max_body_size 0;\n\
             location /cache/ {{\n      dav_methods PUT;\n      create_full_put_path on;\n      dav_access user:rw;\n    }}\n  }}\n}}\n"
    );
    std::fs::write(dir.join("nginx.conf"), conf).unwrap();
    let child = std::process::Command::new("nginx")
        .arg("-p")
        .arg(dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("nginx (bash tests/full.sh installs Debian's)");
    // Owned at once: stopped (and waited for) however this ends.
    let server = Nginx {
        child,
        url: format!("{scheme}://127.0.0.1:{port}/cache"),
    };
    for _ in 0..500 {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return server;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!(
        "nginx did not listen on {port}: {:?}",
        std::fs::read_to_string(dir.join("error.log"))
    );
}

/// The client against a real server of the protocol: nginx's WebDAV
/// module stores what is PUT and answers 404 for what it lacks. It checks
/// nothing, so a blob stored under another's hash is stored, and kiln's
/// check on the way back is what refuses it.
#[test]
#[ignore = "full tier: nginx from Debian's packages (tests/full.sh installs it)"]
fn nginx_webdav_stores_and_serves_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let server = nginx(dir.path());
    let r = Remote::new(&Settings::new(&server.url)).unwrap();
    let a: Vec<u8> = (0..3_000_000u32).map(|k| (k * 7 % 253) as u8).collect();
    let key = sha(b"a job");
    assert_eq!(r.get_action(&key).unwrap(), None);
    assert!(!r.get_blob(&blob(&a), &mut Vec::new()).unwrap());
    r.put_blob(&blob(&a), &mut &a[..]).unwrap();
    let result = result_of(&[("out/big.bin", &a)]);
    r.put_action(&key, &result).unwrap();
    assert_eq!(r.get_action(&key).unwrap(), Some(result));
    let mut got = Vec::new();
    assert!(r.get_blob(&blob(&a), &mut got).unwrap());
    assert!(got == a, "the blob came back changed");
    // On disk where Bazel's clients put it: cache/cas/<sha256>.
    assert!(
        dir.path()
            .join("www/cache/cas")
            .join(hex(&sha(&a)))
            .is_file()
    );
    // A blob under a hash that is not its own: nginx stores it, kiln
    // refuses it when it comes back.
    let lie = Digest {
        sha256: sha(b"something else"),
        size: 5,
    };
    r.put_blob(&lie, &mut &b"hello"[..]).unwrap();
    let e = r.get_blob(&lie, &mut Vec::new()).unwrap_err();
    assert!(matches!(e, Error::Poisoned { .. }), "{e}");
}

/// nginx over HTTPS asking for client certificates (`ssl_verify_client
/// on`), as a studio's cache behind mTLS: refused without kiln's client
/// certificate, a round trip with it.
#[test]
#[ignore = "full tier: nginx from Debian's packages (tests/full.sh installs it)"]
fn nginx_over_https_with_client_certificates() {
    let dir = tempfile::tempdir().unwrap();
    let server = nginx_with(dir.path(), true);
    let mut s = Settings::new(&server.url);
    s.tls_ca = Some(tls_file("ca.pem"));
    let bytes = b"through nginx's TLS".to_vec();
    let e = Remote::new(&s)
        .unwrap()
        .put_blob(&blob(&bytes), &mut &bytes[..])
        .unwrap_err();
    // nginx answers a client without a certificate with 400.
    assert!(e.to_string().contains("answered 400"), "{e}");
    s.tls_client = Some((tls_file("client.pem"), tls_file("client.key")));
    let r = Remote::new(&s).unwrap();
    r.put_blob(&blob(&bytes), &mut &bytes[..]).unwrap();
    let mut got = Vec::new();
    assert!(r.get_blob(&blob(&bytes), &mut got).unwrap());
    assert_eq!(got, bytes);
    s.tls_client = Some((tls_file("other-client.pem"), tls_file("other-client.key")));
    let e = Remote::new(&s)
        .unwrap()
        .get_blob(&blob(&bytes), &mut Vec::new())
        .unwrap_err();
    assert!(e.to_string().contains("answered 400"), "{e}");
}

/// The jobs of a build report whose kind goes through the remote cache
/// (a model conversion is rebuilt, not downloaded).
fn shared_jobs(report: &serde_json::Value) -> u64 {
    report["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|j| kiln::pipeline::shared_cache::worth_sharing(j["kind"].as_str().unwrap()))
        .count() as u64
}

/// The build's bytes under `out/`, without its state (`.kiln/`).
fn outputs(p: &crate::cli_support::Project) -> BTreeMap<std::path::PathBuf, Vec<u8>> {
    crate::cli_support::snapshot_bytes(&p.path("out"))
        .into_iter()
        .filter(|(k, _)| !k.starts_with(".kiln"))
        .collect()
}

/// A build with the remote cache stores every job; a fresh copy of the
/// project elsewhere (as a fresh CI clone) then restores every job from it,
/// builds none, and its outputs are byte for byte the first build's; the
/// next build there finds them fresh. Through the two-level lookup: each
/// job's probe names its input list, whose files are hashed here.
#[test]
fn a_fresh_clone_restores_every_job_from_the_cache_and_builds_none() {
    use crate::cli_support::{Project, ids_with};
    let server = Server::start();
    let a = Project::demo();
    let report = a.builds(&["--remote-cache", &server.url]);
    let jobs = report["totals"]["jobs"].as_u64().unwrap();
    let cached = shared_jobs(&report);
    assert!(
        jobs >= 5 && cached == jobs - 1,
        "one conversion in the demo: {report}"
    );
    let said = |r: &serde_json::Value| -> Vec<(serde_json::Value, serde_json::Value)> {
        r["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|j| (j["warnings"].clone(), j["notes"].clone()))
            .collect()
    };
    let built_said = said(&report);
    assert!(
        built_said.iter().any(|(w, _)| !w.is_null()),
        "the demo has warnings to carry"
    );
    assert_eq!(report["totals"]["built"], jobs, "{report}");
    assert!(
        !report.to_string().contains("remote cache"),
        "no cache warning: {report}"
    );
    let counts = |r: &serde_json::Value| -> Vec<u64> {
        [
            "hits",
            "misses",
            "errors",
            "sampled",
            "not_shared",
            "stored",
            "store_errors",
        ]
        .iter()
        .map(|k| r["remote_cache"][k].as_u64().unwrap())
        .collect()
    };
    assert_eq!(report["remote_cache"]["url"], server.url.as_str());
    assert_eq!(report["remote_cache"]["read_only"], false);
    assert_eq!(counts(&report), [0, cached, 0, 0, jobs - cached, cached, 0]);
    let stored = server.requests();
    assert!(
        stored
            .iter()
            .all(|r| r.starts_with("GET /cache/ac/") || r.starts_with("PUT ")),
        "{stored:?}"
    );

    let b = Project::demo();
    let report = b.builds(&["--remote-cache", &server.url, "--remote-cache-read-only"]);
    assert_eq!(report["totals"]["restored"], cached, "{report}");
    assert_eq!(
        report["totals"]["built"],
        jobs - cached,
        "the conversion: {report}"
    );
    assert_eq!(ids_with(&report, "restored").len() as u64, cached);
    assert_eq!(report["remote_cache"]["read_only"], true);
    assert_eq!(counts(&report), [cached, 0, 0, 0, jobs - cached, 0, 0]);
    assert_eq!(outputs(&b), outputs(&a), "restored bytes");
    assert_eq!(
        said(&report),
        built_said,
        "the warnings and notes come back with the outputs"
    );
    let requests = server.requests();
    assert!(
        requests.iter().all(|r| r.starts_with("GET ")),
        "read-only: {requests:?}"
    );
    let entries = requests
        .iter()
        .filter(|r| r.starts_with("GET /cache/ac/"))
        .count() as u64;
    assert_eq!(entries, 2 * cached, "two entries a job: {requests:?}");
    assert!(
        requests.len() as u64 <= 8 * jobs,
        "{} requests",
        requests.len()
    );

    let (report, _) = b.build_json(&["--remote-cache", &server.url]);
    assert_eq!(report["totals"]["fresh"], jobs, "{report}");
    assert!(server.requests().is_empty(), "a fresh job asks nothing");
}

/// Nothing poisoned is used: blobs whose bytes are not their digest's
/// (wrong, cut short, longer), or a server answering 500. A job whose
/// outputs all travel inlined in its entry (checked against their
/// digests) is still restored; every other job is built here, correct,
/// with one warning; `--remote-cache-strict` makes the cache's error the
/// job's.
#[test]
fn a_poisoned_or_failing_cache_is_a_miss_with_a_warning_or_under_strict_a_failure() {
    use crate::cli_support::Project;
    let server = Server::start();
    let a = Project::demo();
    a.builds(&["--remote-cache", &server.url]);
    for fault in [
        Fault::WrongBytes,
        Fault::Truncated,
        Fault::Reset,
        Fault::Longer,
        Fault::Status(500),
    ] {
        server.set(fault);
        let b = Project::demo();
        let (report, out) =
            b.build_json(&["--remote-cache", &server.url, "--remote-cache-read-only"]);
        assert!(
            out.status.success(),
            "{fault:?}: {}",
            crate::cli_support::stderr(&out)
        );
        let jobs = report["totals"]["jobs"].as_u64().unwrap();
        let built = report["totals"]["built"].as_u64().unwrap();
        let cached = shared_jobs(&report);
        assert_eq!(
            built + report["totals"]["restored"].as_u64().unwrap(),
            jobs,
            "{fault:?}"
        );
        // Each refusal or failure is counted, beside the warning.
        let rc = &report["remote_cache"];
        assert_eq!(
            rc["hits"].as_u64().unwrap()
                + rc["errors"].as_u64().unwrap()
                + rc["not_shared"].as_u64().unwrap(),
            jobs,
            "{fault:?}: {rc}"
        );
        assert!(rc["errors"].as_u64().unwrap() >= 2, "{fault:?}: {rc}");
        match fault {
            Fault::Status(_) => assert_eq!(built, jobs, "{fault:?}: {report}"),
            // The levels' compiled characters are larger than what is inlined.
            _ => assert!(built >= 2, "{fault:?}: {report}"),
        }
        for j in report["jobs"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|j| j["status"] == "built")
            .filter(|j| kiln::pipeline::shared_cache::worth_sharing(j["kind"].as_str().unwrap()))
        {
            let w = j["warnings"].to_string();
            assert!(
                w.contains("remote cache: ") && w.contains("built here instead"),
                "{fault:?}: {j}"
            );
        }
        assert_eq!(outputs(&b), outputs(&a), "{fault:?}");
        let (report, out) =
            Project::demo().build_json(&["--remote-cache", &server.url, "--remote-cache-strict"]);
        assert!(!out.status.success(), "{fault:?}");
        assert_eq!(
            report["totals"]["failed"],
            built - (jobs - cached),
            "{fault:?}: {report}"
        );
        assert!(
            report.to_string().contains("--remote-cache-strict"),
            "{report}"
        );
        server.requests();
    }
}

/// Entries a hostile server plants are refused and the job built here: an
/// entry naming a path outside the job's outputs (`../../escape`), one
/// naming a blob the server does not hold, and an input list naming a file
/// outside the project. Nothing is written outside `out/`, and the outputs
/// are the first build's.
#[test]
fn planted_entries_are_refused_and_nothing_is_written_outside_out() {
    use crate::cli_support::Project;
    let server = Server::start();
    let a = Project::demo();
    a.builds(&["--remote-cache", &server.url]);
    let rewrite = |f: &dyn Fn(&mut ActionResult)| {
        let mut st = server.store.lock().unwrap();
        for body in st.actions.values_mut() {
            let mut r = action_result::decode(body).unwrap();
            f(&mut r);
            *body = action_result::encode(&r);
        }
    };
    // Inlined bytes that are not their digest's: the blob is fetched
    // instead, and every job is restored all the same.
    rewrite(&|r| {
        for f in &mut r.output_files {
            if let Some(b) = f.contents.first_mut() {
                *b ^= 1;
            }
        }
    });
    let b = Project::demo();
    let (report, _) = b.build_json(&[
        "--remote-cache",
        &server.url,
        "--remote-cache-read-only",
        "--remote-cache-strict",
    ]);
    assert_eq!(
        report["totals"]["restored"],
        shared_jobs(&report),
        "{report}"
    );
    assert_eq!(
        outputs(&b),
        outputs(&a),
        "inlined bytes refused, blobs used"
    );
    let planted = |what: &str| {
        let b = Project::demo();
        let (report, out) =
            b.build_json(&["--remote-cache", &server.url, "--remote-cache-read-only"]);
        assert!(out.status.success(), "{what}");
        let jobs = report["totals"]["jobs"].as_u64().unwrap();
        assert_eq!(report["totals"]["built"], jobs, "{what}: {report}");
        assert_eq!(outputs(&b), outputs(&a), "{what}");
        let top: Vec<String> = std::fs::read_dir(b.root())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        let mut top = top;
        top.sort();
        assert_eq!(top, ["manifests", "out", "sources"], "{what}");
        assert!(
            !b.root().parent().unwrap().join("escape").exists(),
            "{what}"
        );
        report
    };
    // A job's outputs named under another path.
    rewrite(&|r| {
        if r.output_files[0].path != "kiln-inputs" {
            r.output_files[0].path = "../../escape".into();
        }
    });
    let report = planted("a path outside the outputs");
    assert!(report.to_string().contains("not its outputs"), "{report}");
    // A blob the server does not hold (bazel-remote would answer 404 for
    // the entry; a careless server serves it).
    rewrite(&|r| {
        if r.output_files[0].path == "../../escape" {
            r.output_files[0].path = "poses/x.ospc".into();
        }
    });
    server
        .store
        .lock()
        .unwrap()
        .blobs
        .retain(|_, b| b.len() < 64);
    planted("a missing blob");
    // An input list naming a file outside the project.
    let escape = b"../../../etc/passwd\n".to_vec();
    let sha_hex = crate::remote::hex(&sha(&escape));
    server
        .store
        .lock()
        .unwrap()
        .blobs
        .insert(sha_hex, escape.clone());
    rewrite(&|r| {
        if r.output_files[0].path == "kiln-inputs" {
            r.output_files[0].digest = Digest {
                sha256: sha(&escape),
                size: escape.len() as u64,
            };
        }
    });
    let report = planted("an input list naming a file outside the project");
    assert!(
        report.to_string().contains("the input list of job"),
        "{report}"
    );
}

/// The whole loop on nginx (Debian's, its WebDAV module): four fresh
/// copies of the demo build at once, sharing the cache (each misses,
/// builds and stores, the same blobs PUT side by side); then a fifth,
/// read-only, restores every job, builds none, and its outputs are byte
/// for byte the others'.
#[test]
#[ignore = "full tier: nginx from Debian's packages (tests/full.sh installs it)"]
fn four_builds_share_an_nginx_cache_and_a_fresh_clone_restores_every_job() {
    use crate::cli_support::Project;
    let dir = tempfile::tempdir().unwrap();
    let server = nginx(dir.path());
    let projects: Vec<Project> = (0..4).map(|_| Project::demo()).collect();
    let reports: Vec<serde_json::Value> = std::thread::scope(|s| {
        let handles: Vec<_> = projects
            .iter()
            .map(|p| {
                s.spawn(|| p.build_json(&["--remote-cache", &server.url, "--remote-cache-strict"]))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                let (report, out) = h.join().unwrap();
                assert!(out.status.success(), "{}", crate::cli_support::stderr(&out));
                report
            })
            .collect()
    });
    let jobs = reports[0]["totals"]["jobs"].as_u64().unwrap();
    for (p, r) in projects.iter().zip(&reports) {
        assert_eq!(outputs(p), outputs(&projects[0]));
        let done =
            r["totals"]["built"].as_u64().unwrap() + r["totals"]["restored"].as_u64().unwrap();
        assert_eq!(done, jobs, "{r}");
    }
    let fresh = Project::demo();
    let report = fresh.builds(&[
        "--remote-cache",
        &server.url,
        "--remote-cache-read-only",
        "--remote-cache-strict",
    ]);
    assert_eq!(
        report["totals"]["restored"],
        shared_jobs(&report),
        "{report}"
    );
    assert_eq!(
        report["totals"]["built"],
        jobs - shared_jobs(&report),
        "{report}"
    );
    assert_eq!(outputs(&fresh), outputs(&projects[0]));
}

/// A server that refuses writes (401: a read-only token) to a build that
/// means to store: every job is built and correct, each says it was not
/// stored; under `--remote-cache-strict` the refusal fails the job (the
/// trap of a cache that silently stopped storing). `--explain` names a
/// restored job as a remote hit.
#[test]
fn a_server_that_refuses_writes_is_reported_not_silent() {
    use crate::cli_support::Project;
    let server = Server::start();
    server.set(Fault::RefuseWrites(401));
    let a = Project::demo();
    let report = a.builds(&["--remote-cache", &server.url]);
    let jobs = report["totals"]["jobs"].as_u64().unwrap();
    assert_eq!(report["totals"]["built"], jobs);
    let cached = shared_jobs(&report);
    for j in report["jobs"].as_array().unwrap() {
        if !kiln::pipeline::shared_cache::worth_sharing(j["kind"].as_str().unwrap()) {
            assert!(!j["warnings"].to_string().contains("remote cache"), "{j}");
            continue;
        }
        let w = j["warnings"].to_string();
        assert!(
            w.contains("remote cache: not stored: PUT") && w.contains("401"),
            "{j}"
        );
    }
    let (report, out) =
        Project::demo().build_json(&["--remote-cache", &server.url, "--remote-cache-strict"]);
    assert!(!out.status.success());
    assert_eq!(report["totals"]["failed"], cached, "{report}");
    assert!(
        report.to_string().contains("they are built and in place"),
        "{report}"
    );
    // Writes allowed again: stored, then restored and explained.
    server.set(Fault::None);
    Project::demo().builds(&["--remote-cache", &server.url]);
    let b = Project::demo();
    let out = b.kiln(&["build", "--explain", "--remote-cache", &server.url]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("fox-run: restored from the remote cache (a remote hit) because"),
        "{text}"
    );
    let err = crate::cli_support::stderr(&out);
    assert!(
        err.contains(&format!("{cached} restored from the remote cache")),
        "{err}"
    );
}

/// `--remote-cache-verify 100` builds every job here although the cache
/// holds it and compares: equal bytes pass (nothing restored, nothing
/// stored again); an entry whose digest differs from what was built fails
/// the job, naming the output and both SHA-256s.
#[test]
fn remote_cache_verify_builds_a_sample_and_compares_with_the_entry() {
    use crate::cli_support::Project;
    let server = Server::start();
    Project::demo().builds(&["--remote-cache", &server.url]);
    server.requests();
    let report = Project::demo().builds(&[
        "--remote-cache",
        &server.url,
        "--remote-cache-verify",
        "100",
    ]);
    assert_eq!(
        report["totals"]["built"], report["totals"]["jobs"],
        "{report}"
    );
    assert!(
        server
            .requests()
            .iter()
            .all(|r| r.starts_with("GET /cache/ac/")),
        "verified jobs are not stored again"
    );
    {
        // Each entry's first output under another digest, whose blob the
        // server holds too (so it serves the entry, as bazel-remote does
        // only for an entry whose blobs are all there).
        let mut st = server.store.lock().unwrap();
        let mut planted = Vec::new();
        for body in st.actions.values_mut() {
            let mut r = action_result::decode(body).unwrap();
            if r.output_files[0].path != "kiln-inputs" {
                r.output_files[0].digest.sha256[0] ^= 1;
                planted.push(crate::remote::hex(&r.output_files[0].digest.sha256));
            }
            *body = action_result::encode(&r);
        }
        for name in planted {
            st.blobs.insert(name, b"other".to_vec());
        }
    }
    let (report, out) = Project::demo().build_json(&[
        "--remote-cache",
        &server.url,
        "--remote-cache-verify",
        "100",
    ]);
    assert!(!out.status.success());
    assert_eq!(report["totals"]["failed"], shared_jobs(&report), "{report}");
    let text = report.to_string();
    assert!(
        text.contains("built here differs from the cache's entry")
            && text.contains("--remote-cache-verify"),
        "{report}"
    );
    assert!(kiln::pipeline::shared_cache::sampled(&[0xff; 32], 100));
    assert!(!kiln::pipeline::shared_cache::sampled(&[0; 32], 0));
}

/// `--remote-cache-conversions` shares the kinds the policy rebuilds (the
/// demo's model conversion): stored by the first build with it, restored
/// by a fresh copy with it, byte for byte; a fresh copy without it still
/// rebuilds the conversion although the cache holds it.
#[test]
fn remote_cache_conversions_shares_the_kinds_the_policy_rebuilds() {
    use crate::cli_support::Project;
    let server = Server::start();
    let a = Project::demo();
    let report = a.builds(&["--remote-cache", &server.url, "--remote-cache-conversions"]);
    let jobs = report["totals"]["jobs"].as_u64().unwrap();
    assert!(shared_jobs(&report) < jobs, "the demo has a conversion");
    assert_eq!(report["remote_cache"]["share_conversions"], true);
    assert_eq!(report["remote_cache"]["stored"], jobs, "{report}");
    assert_eq!(report["remote_cache"]["not_shared"], 0, "{report}");

    let b = Project::demo();
    let report = b.builds(&[
        "--remote-cache",
        &server.url,
        "--remote-cache-read-only",
        "--remote-cache-conversions",
    ]);
    assert_eq!(report["totals"]["restored"], jobs, "{report}");
    assert_eq!(outputs(&b), outputs(&a), "restored bytes");

    let c = Project::demo();
    let report = c.builds(&["--remote-cache", &server.url, "--remote-cache-read-only"]);
    assert_eq!(report["remote_cache"]["share_conversions"], false);
    assert_eq!(
        report["totals"]["restored"],
        shared_jobs(&report),
        "{report}"
    );
    assert_eq!(
        report["remote_cache"]["not_shared"],
        jobs - shared_jobs(&report),
        "{report}"
    );
    assert_eq!(outputs(&c), outputs(&a));
}
