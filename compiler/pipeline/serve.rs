//! `kiln view --serve`: the view page over HTTP on 127.0.0.1, and a
//! stream of Server-Sent Events that tells the page to reload when what it
//! shows changed (a `kiln watch` beside it committing new outputs).
//!
//! Two paths: `GET /` (any query: the page reads its own) is the page,
//! made afresh for each request by the caller's `page(generation)`;
//! `GET /events` is `text/event-stream`, one `data: <generation>` at once
//! and one each time the generation goes up. The generation goes up when
//! the caller's `signature()` (polled) has changed and then held still for
//! one more poll, so a build still committing is not shown half done.
//! Anything else is refused. Requests are read with a bound on their size
//! and time; only `Host: 127.0.0.1` or `localhost` is served (a page of
//! another site that resolves its own name to 127.0.0.1 is refused); at
//! most [`MAX_CONNECTIONS`] at once.

use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use super::job::Stop;

/// Connections served at once (pages and event streams); more are
/// answered 503 and closed.
pub const MAX_CONNECTIONS: usize = 32;
/// Bytes of a request's head (its line and headers).
pub const MAX_REQUEST_BYTES: usize = 8 << 10;
/// How long a request's head may take to arrive.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// A comment on an idle event stream this often, to find clients gone.
const HEARTBEAT: Duration = Duration::from_secs(15);
/// How often the accept loop and the streams look at the stop flag.
const TICK: Duration = Duration::from_millis(20);

#[derive(Clone, Debug)]
pub struct Settings {
    /// Least time between two polls of the signature (a poll that took
    /// longer waits four times its own time).
    pub poll: Duration,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            poll: Duration::from_millis(200),
        }
    }
}

/// A listener on 127.0.0.1 (`port` 0: any free port).
pub fn bind(port: u16) -> io::Result<TcpListener> {
    TcpListener::bind((Ipv4Addr::LOCALHOST, port))
}

/// The generation the page is at, and a wake-up for the streams.
struct Shared {
    generation: Mutex<u64>,
    changed: Condvar,
    connections: AtomicUsize,
}

/// Whether a signature seen by a poll moves the generation.
#[derive(Debug)]
pub struct Changes<T> {
    shown: T,
    pending: Option<T>,
}

impl<T: PartialEq> Changes<T> {
    pub fn new(shown: T) -> Changes<T> {
        Changes {
            shown,
            pending: None,
        }
    }

    /// True when `now` differs from what is shown and equals what the
    /// poll before saw (it held still): it is then what is shown.
    pub fn settled(&mut self, now: T) -> bool {
        if now == self.shown {
            self.pending = None;
            return false;
        }
        if self.pending.as_ref() == Some(&now) {
            self.shown = now;
            self.pending = None;
            return true;
        }
        self.pending = Some(now);
        false
    }
}

/// Serves until `stop` is requested (then returns `Ok`).
pub fn serve<T: PartialEq>(
    listener: TcpListener,
    settings: &Settings,
    stop: &Stop,
    page: impl Fn(u64) -> String + Sync,
    mut signature: impl FnMut() -> T,
) -> io::Result<()> {
    listener.set_nonblocking(true)?;
    let port = listener.local_addr()?.port();
    let shared = Shared {
        generation: Mutex::new(0),
        changed: Condvar::new(),
        connections: AtomicUsize::new(0),
    };
    let mut changes = Changes::new(signature());
    let mut next_poll = Instant::now() + settings.poll;
    std::thread::scope(|scope| {
        while stop.requested().is_none() {
            match listener.accept() {
                Ok((stream, _)) => {
                    let (shared, page) = (&shared, &page);
                    if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                        shared.connections.fetch_sub(1, Ordering::SeqCst);
                        let _ = respond(&stream, "503 Service Unavailable", "text/plain", b"busy");
                        continue;
                    }
                    scope.spawn(move || {
                        let _ = connection(stream, port, shared, stop, page);
                        shared.connections.fetch_sub(1, Ordering::SeqCst);
                    });
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(TICK),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // A connection that failed before it was accepted.
                Err(_) => std::thread::sleep(TICK),
            }
            if Instant::now() >= next_poll {
                let started = Instant::now();
                if changes.settled(signature()) {
                    *shared.generation.lock().unwrap_or_else(|e| e.into_inner()) += 1;
                    shared.changed.notify_all();
                }
                next_poll = Instant::now() + settings.poll.max(started.elapsed() * 4);
            }
        }
        shared.changed.notify_all();
    });
    Ok(())
}

fn generation(shared: &Shared) -> u64 {
    *shared.generation.lock().unwrap_or_else(|e| e.into_inner())
}

/// One connection: its request read, then the page, the event stream or
/// a refusal.
fn connection(
    mut stream: TcpStream,
    port: u16,
    shared: &Shared,
    stop: &Stop,
    page: &(impl Fn(u64) -> String + Sync),
) -> io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(REQUEST_TIMEOUT))?;
    let head = match read_head(&mut stream)? {
        Some(head) => head,
        None => {
            return respond(
                &stream,
                "431 Request Header Fields Too Large",
                "text/plain",
                b"too large",
            );
        }
    };
    let request = match Request::parse(&head) {
        Some(r) => r,
        None => return respond(&stream, "400 Bad Request", "text/plain", b"bad request"),
    };
    if !request.host_is_local(port) {
        return respond(
            &stream,
            "421 Misdirected Request",
            "text/plain",
            b"only 127.0.0.1 or localhost",
        );
    }
    if request.method != "GET" {
        return respond(&stream, "405 Method Not Allowed", "text/plain", b"GET only");
    }
    match request.path.as_str() {
        "/" => {
            let html = page(generation(shared));
            respond(
                &stream,
                "200 OK",
                "text/html; charset=utf-8",
                html.as_bytes(),
            )
        }
        "/events" => events(stream, shared, stop),
        _ => respond(&stream, "404 Not Found", "text/plain", b"not found"),
    }
}

/// The request's head, up to its blank line; `None` past
/// [`MAX_REQUEST_BYTES`].
fn read_head(stream: &mut TcpStream) -> io::Result<Option<Vec<u8>>> {
    let mut head = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        if head.windows(4).any(|w| w == b"\r\n\r\n") {
            return Ok(Some(head));
        }
        if head.len() > MAX_REQUEST_BYTES {
            return Ok(None);
        }
        let n = stream.read(&mut buf)?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        head.extend_from_slice(&buf[..n]);
    }
}

/// What the server reads of a request.
#[derive(Debug, PartialEq)]
pub struct Request {
    pub method: String,
    /// Without its query.
    pub path: String,
    pub host: Option<String>,
}

impl Request {
    /// The request line and the Host header of a head; `None` when it is
    /// not HTTP/1.x or not text.
    pub fn parse(head: &[u8]) -> Option<Request> {
        let text = std::str::from_utf8(head).ok()?;
        let mut lines = text.split("\r\n");
        let mut first = lines.next()?.split(' ');
        let (method, target, version) = (first.next()?, first.next()?, first.next()?);
        if first.next().is_some() || !version.starts_with("HTTP/1.") {
            return None;
        }
        let path = target.split('?').next()?.to_string();
        let host = lines
            .filter_map(|l| l.split_once(':'))
            .find(|(name, _)| name.eq_ignore_ascii_case("host"))
            .map(|(_, value)| value.trim().to_string());
        Some(Request {
            method: method.to_string(),
            path,
            host,
        })
    }

    /// Whether its Host names this server by a local name.
    pub fn host_is_local(&self, port: u16) -> bool {
        let Some(host) = &self.host else {
            return false;
        };
        ["127.0.0.1", "localhost"]
            .iter()
            .any(|name| *host == format!("{name}:{port}") || host == name)
    }
}

fn respond(mut stream: &TcpStream, status: &str, kind: &str, body: &[u8]) -> io::Result<()> {
    write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nConnection: close\r\n\r\n",
        body.len()
    )?;
    stream.write_all(body)?;
    stream.flush()
}

/// The event stream: the generation now, then each new one, until the
/// client leaves or the server stops.
fn events(mut stream: TcpStream, shared: &Shared, stop: &Stop) -> io::Result<()> {
    stream.write_all(
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n\
          Connection: keep-alive\r\n\r\nretry: 1000\n\n",
    )?;
    let mut sent = generation(shared);
    write!(stream, "data: {sent}\n\n")?;
    stream.flush()?;
    let mut quiet_since = Instant::now();
    loop {
        if stop.requested().is_some() {
            return Ok(());
        }
        let now = {
            let g = shared.generation.lock().unwrap_or_else(|e| e.into_inner());
            let g = match *g == sent {
                true => {
                    shared
                        .changed
                        .wait_timeout(g, TICK * 10)
                        .unwrap_or_else(|e| e.into_inner())
                        .0
                }
                false => g,
            };
            *g
        };
        if now != sent {
            write!(stream, "data: {now}\n\n")?;
            stream.flush()?;
            sent = now;
            quiet_since = Instant::now();
        } else if quiet_since.elapsed() >= HEARTBEAT {
            stream.write_all(b": still here\n\n")?;
            stream.flush()?;
            quiet_since = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_counts_once_it_held_still_for_a_poll() {
        let mut c = Changes::new(1);
        assert!(!c.settled(1));
        assert!(!c.settled(2)); // seen once: a build may still be writing
        assert!(!c.settled(3)); // moved again
        assert!(c.settled(3)); // held still: shown
        assert!(!c.settled(3));
        assert!(!c.settled(4));
        assert!(!c.settled(3)); // back to what is shown: nothing pending
        assert!(!c.settled(4));
        assert!(c.settled(4));
    }

    #[test]
    fn requests_are_read_by_their_line_and_host() {
        let r = Request::parse(b"GET /?only=3&at=0.5 HTTP/1.1\r\nhOsT: 127.0.0.1:8000\r\n\r\n")
            .unwrap();
        assert_eq!((r.method.as_str(), r.path.as_str()), ("GET", "/"));
        assert!(r.host_is_local(8000));
        assert!(!r.host_is_local(8001));
        let r = Request::parse(b"GET /events HTTP/1.0\r\nHost: localhost\r\n\r\n").unwrap();
        assert_eq!(r.path, "/events");
        assert!(r.host_is_local(1));
        let evil = Request::parse(b"GET / HTTP/1.1\r\nHost: evil.example:8000\r\n\r\n").unwrap();
        assert!(!evil.host_is_local(8000));
        let lookalike =
            Request::parse(b"GET / HTTP/1.1\r\nHost: localhost.evil.example:80\r\n\r\n").unwrap();
        assert!(!lookalike.host_is_local(80));
        let none = Request::parse(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        assert!(!none.host_is_local(80));
        for bad in [
            &b"GET /\r\n\r\n"[..],
            b"GET / SPDY/3\r\n\r\n",
            b"GET  / HTTP/1.1 x\r\n\r\n",
            b"\xff\xfe",
        ] {
            assert_eq!(Request::parse(bad), None, "{bad:?}");
        }
    }
}
