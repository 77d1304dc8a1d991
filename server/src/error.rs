//! Why a server could not start, or stopped other than when asked: a configuration
//! that would expose it, or a resource the system refused. The text is what
//! `marsc serve` prints after `error: `.

use std::fmt;

/// Why a server could not start or stopped abnormally.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// The configuration breaks a security rule or a limit (no token off
    /// loopback, a short token, a missing root, zero jobs or workers).
    Config(String),
    /// The system refused what the server needs (its address, a thread, the async
    /// runtime, random bytes for a token).
    Io(String),
    /// Serving stopped with an error, or the server's thread panicked.
    Stopped(String),
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerError::Config(message)
            | ServerError::Io(message)
            | ServerError::Stopped(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for ServerError {}
