//! `marsc serve`: the job service, the third front-end over the library's job API
//! (`marsc::job`) beside the CLI and the REPL. Users submit scripts over a JSON REST
//! API under `/api`; each job compiles and runs on its own blocking thread with its
//! own cancel token, reports its state and progress (per op and per worker) as
//! server-sent events, and keeps its printed output, diagnostics, result arrays,
//! stats, trace and IR dumps for the client to fetch. The same binary serves a web
//! dashboard whose assets are embedded ([`assets`]).
//!
//! A server runs scripts with its user's rights, so it is guarded as Jupyter is
//! ([`security`]): loopback by default, a token on every request, a `Host` check
//! against DNS rebinding, JSON-only bodies, no CORS, size limits, and `--root` for
//! the files scripts may touch.
//!
//! Layout: [`config`] (what `marsc serve` takes), [`jobs`] (the job table, the
//! queue and the job threads), [`events`] (the event bus behind the SSE streams),
//! [`api`] (the routes), [`reply`] (the JSON error response every route gives),
//! [`arrays`] (`.npy` and JSON renderings of result arrays), [`error`] (why a server
//! could not start).

pub mod api;
pub mod arrays;
pub mod assets;
pub mod config;
pub mod error;
pub mod events;
pub mod jobs;
pub mod reply;
pub mod security;

pub use config::Config;
pub use error::ServerError;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

/// A bound server, ready to serve.
pub struct Server {
    listener: std::net::TcpListener,
    config: Arc<Config>,
    address: SocketAddr,
}

impl Server {
    /// Checks the configuration's security rules and binds its address.
    pub fn bind(config: Config) -> Result<Server, ServerError> {
        config.validate()?;
        let listener = std::net::TcpListener::bind(config.bind).map_err(|error| {
            ServerError::Io(format!("cannot listen on {}: {error}", config.bind))
        })?;
        listener.set_nonblocking(true).map_err(|error| {
            ServerError::Io(format!("cannot listen on {}: {error}", config.bind))
        })?;
        let address = listener.local_addr().map_err(|error| {
            ServerError::Io(format!("cannot listen on {}: {error}", config.bind))
        })?;
        Ok(Server {
            listener,
            config: Arc::new(config),
            address,
        })
    }

    /// The address it listens on (with the real port when bound to port 0).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The dashboard's URL with the token, as Jupyter prints it.
    pub fn url(&self) -> String {
        let host = if self.address.ip().is_unspecified() {
            "127.0.0.1".to_string()
        } else {
            match self.address {
                SocketAddr::V4(v4) => v4.ip().to_string(),
                SocketAddr::V6(v6) => format!("[{}]", v6.ip()),
            }
        };
        match &self.config.token {
            Some(token) => format!("http://{host}:{}/?token={token}", self.address.port()),
            None => format!("http://{host}:{}/", self.address.port()),
        }
    }

    /// Serves until `shutdown` completes, then cancels every job that has not
    /// ended and waits (up to `grace`) for their threads to clean up.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
        grace: Duration,
    ) -> Result<(), ServerError> {
        let listener = tokio::net::TcpListener::from_std(self.listener).map_err(|error| {
            ServerError::Io(format!("cannot listen on {}: {error}", self.address))
        })?;
        let manager = jobs::Manager::new(Arc::clone(&self.config), self.address);
        let app = api::router(Arc::clone(&manager));
        let served = axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown({
            let manager = Arc::clone(&manager);
            async move {
                shutdown.await;
                manager.shut_down();
            }
        })
        .await;
        manager.shut_down();
        manager.wait_idle(grace).await;
        served.map_err(|error| ServerError::Stopped(format!("the server stopped: {error}")))
    }

    /// Serves on a thread of its own with its own runtime (tests, benchmarks);
    /// the handle stops it.
    pub fn spawn(self) -> Result<Running, ServerError> {
        let address = self.address;
        let url = self.url();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|error| ServerError::Io(format!("cannot start the runtime: {error}")))?;
        let thread = std::thread::Builder::new()
            .name("marsc-serve".to_string())
            .spawn(move || {
                runtime.block_on(self.run(
                    async move {
                        let _ = stopped.await;
                    },
                    Duration::from_secs(10),
                ))
            })
            .map_err(|error| ServerError::Io(format!("cannot start the server thread: {error}")))?;
        Ok(Running {
            address,
            url,
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

/// A server serving on its own thread; dropping it stops it.
pub struct Running {
    pub address: SocketAddr,
    pub url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<Result<(), ServerError>>>,
}

impl Running {
    /// `http://ADDRESS` (no trailing slash).
    pub fn base(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Stops serving, cancels the jobs, and waits for the thread.
    pub fn stop(mut self) -> Result<(), ServerError> {
        self.stop_now()
    }

    fn stop_now(&mut self) -> Result<(), ServerError> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take() {
            Some(thread) => thread
                .join()
                .map_err(|_| ServerError::Stopped("the server thread panicked".to_string()))?,
            None => Ok(()),
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.stop_now();
    }
}
