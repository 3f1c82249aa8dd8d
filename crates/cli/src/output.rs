//! The one way the binary writes its results: stdout writes that fail as errors, never panics.
//!
//! `println!` panics when stdout cannot be written (a reader that went away, a full disk).
//! Every result goes through [`write_fmt`] (the `out!` / `outln!` macros) or [`Stdout`] instead,
//! and a failure comes back as an [`OutputError`] that `main` turns into the exit: a closed pipe
//! ends the process quietly (as grep and ripgrep do), any other write error is one line on
//! stderr and exit 1. Diagnostics go through [`diag`], which never fails: a broken stderr must
//! not stop the command either.

use std::fmt;
use std::io::{self, Write};

/// stdout could not be written.
#[derive(Debug)]
pub(crate) struct OutputError(pub(crate) io::Error);

impl OutputError {
    /// Whether the reader of stdout went away (`cartera tx | head -1`): not a failure.
    pub(crate) fn is_closed_pipe(&self) -> bool {
        self.0.kind() == io::ErrorKind::BrokenPipe
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write the output: {}", self.0)
    }
}

impl std::error::Error for OutputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}

impl From<io::Error> for OutputError {
    fn from(error: io::Error) -> Self {
        Self(error)
    }
}

/// Writes formatted text to stdout (line-buffered by the standard library).
pub(crate) fn write_fmt(args: fmt::Arguments<'_>) -> Result<(), OutputError> {
    io::stdout().lock().write_fmt(args).map_err(OutputError)
}

/// Writes text to stdout.
pub(crate) fn write_str(text: &str) -> Result<(), OutputError> {
    io::stdout()
        .lock()
        .write_all(text.as_bytes())
        .map_err(OutputError)
}

/// Flushes stdout: the last partial line fails here, not silently at exit.
pub(crate) fn flush() -> Result<(), OutputError> {
    io::stdout().lock().flush().map_err(OutputError)
}

/// A buffered stdout for large documents (a serializer writes into it). A serializer wraps
/// the write error in its own; [`Stdout::failure`] gives it back as an [`OutputError`].
pub(crate) struct Stdout {
    inner: io::BufWriter<io::StdoutLock<'static>>,
    /// The OS error of the first failed write, or its kind.
    failed: Option<Result<i32, io::ErrorKind>>,
}

impl Stdout {
    /// A 64 KiB buffer over the locked stdout.
    pub(crate) fn buffered() -> Self {
        Self {
            inner: io::BufWriter::with_capacity(1 << 16, io::stdout().lock()),
            failed: None,
        }
    }

    fn note<T>(&mut self, result: io::Result<T>) -> io::Result<T> {
        if let Err(error) = &result
            && self.failed.is_none()
        {
            self.failed = Some(error.raw_os_error().ok_or(error.kind()));
        }
        result
    }

    /// The write failure, if a write failed.
    pub(crate) fn failure(&self) -> Option<OutputError> {
        self.failed.map(|failed| {
            OutputError(match failed {
                Ok(code) => io::Error::from_raw_os_error(code),
                Err(kind) => io::Error::from(kind),
            })
        })
    }

    /// Flushes the buffer and stdout.
    pub(crate) fn finish(mut self) -> Result<(), OutputError> {
        let flushed = self.inner.flush();
        self.note(flushed).map_err(OutputError)
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(buf);
        self.note(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        let flushed = self.inner.flush();
        self.note(flushed)
    }
}

/// A diagnostic line on stderr; a stderr that cannot be written is ignored.
pub(crate) fn write_diag(args: fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(args);
    let _ = err.write_all(b"\n");
}

/// The output failure in an error's chain, if any.
pub(crate) fn output_error(error: &anyhow::Error) -> Option<&OutputError> {
    error
        .chain()
        .find_map(|cause| cause.downcast_ref::<OutputError>())
}

/// `print!` that returns an [`OutputError`] through `?` instead of panicking.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::write_fmt(format_args!($($arg)*))?
    };
}

/// `println!` that returns an [`OutputError`] through `?` instead of panicking.
macro_rules! outln {
    () => {
        $crate::output::write_str("\n")?
    };
    ($($arg:tt)*) => {
        $crate::output::write_fmt(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// `eprintln!` that never panics.
macro_rules! diag {
    ($($arg:tt)*) => {
        $crate::output::write_diag(format_args!($($arg)*))
    };
}

pub(crate) use {diag, out, outln};
