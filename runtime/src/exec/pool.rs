//! Worker threads that outlive runs, shared by every run (and so every job) of the
//! process: a run's workers are loops handed to threads of a [`WorkerPool`] rather
//! than threads spawned and joined per run, so a short run (a REPL input, one stage
//! of a staged program) pays no thread creation, and thread-local scratch buffers
//! (the JIT's row blocks) stay warm from run to run.
//!
//! The pool never makes a run wait for a thread: a loop goes to an idle thread if
//! there is one, else to a new thread. Runs that overlap therefore each have all
//! their workers at once (a run's workers wait for each other's chunks, so handing
//! a run fewer threads than workers could deadlock), and the operating system
//! shares the cores between them. A thread idle for [`IDLE_TIMEOUT`] ends, so a
//! burst of concurrent jobs does not hold its threads for ever.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// How long a thread waits idle for a loop before it ends.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(30);

/// A task, and where to say whether it finished (`false`: it panicked).
type Task = (Box<dyn FnOnce() + Send + 'static>, Sender<bool>);

/// An idle thread: where to send its next task, and its number (to find it again).
struct Idle {
    id: u64,
    tasks: Sender<Task>,
}

/// Threads that run worker loops, reused from run to run.
#[derive(Default)]
pub struct WorkerPool {
    state: Mutex<PoolState>,
}

#[derive(Default)]
struct PoolState {
    idle: Vec<Idle>,
    next_id: u64,
    /// Threads alive (idle or running a task).
    threads: usize,
}

/// A task handed to the pool; [`TaskHandle::join`] waits for it to end.
#[must_use = "a task must be joined before what it borrows is dropped"]
pub struct TaskHandle {
    done: Receiver<bool>,
}

impl TaskHandle {
    /// Waits for the task to end; `false` if it panicked.
    pub fn join(self) -> bool {
        self.done.recv().unwrap_or(false)
    }
}

impl WorkerPool {
    /// The process's pool, which every run uses.
    pub fn global() -> &'static WorkerPool {
        static POOL: OnceLock<WorkerPool> = OnceLock::new();
        POOL.get_or_init(WorkerPool::default)
    }

    /// Runs `task` on an idle thread, or on a new one when none is idle.
    pub fn spawn(
        &'static self,
        task: impl FnOnce() + Send + 'static,
    ) -> std::io::Result<TaskHandle> {
        let (done_sender, done) = mpsc::channel();
        let mut task: Task = (Box::new(task), done_sender);
        loop {
            let idle = self.lock().idle.pop();
            let Some(idle) = idle else { break };
            match idle.tasks.send(task) {
                Ok(()) => return Ok(TaskHandle { done }),
                // The thread ended after all; try the next one.
                Err(mpsc::SendError(returned)) => task = returned,
            }
        }
        let id = {
            let mut state = self.lock();
            state.next_id += 1;
            state.threads += 1;
            state.next_id
        };
        let spawned = std::thread::Builder::new()
            .name(format!("marsc-worker-{id}"))
            .spawn(move || self.serve(id, task));
        if let Err(error) = spawned {
            self.lock().threads -= 1;
            return Err(error);
        }
        Ok(TaskHandle { done })
    }

    /// Threads alive now (idle or busy).
    pub fn threads(&self) -> usize {
        self.lock().threads
    }

    /// Threads waiting for a task now.
    pub fn idle_threads(&self) -> usize {
        self.lock().idle.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, PoolState> {
        // A task's panic is caught inside it, so the lock is never poisoned by one;
        // should it be, the state is still consistent (every update is one step).
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// A thread's life: run the first task, then wait idle for the next until the
    /// timeout passes with no task.
    fn serve(&self, id: u64, first: Task) {
        let (sender, tasks) = mpsc::channel::<Task>();
        let mut task = first;
        loop {
            let (body, done) = task;
            let finished = catch_unwind(AssertUnwindSafe(body)).is_ok();
            // Idle before the task is reported done: whoever waited for it finds this
            // thread free for its next task.
            self.lock().idle.push(Idle {
                id,
                tasks: sender.clone(),
            });
            let _ = done.send(finished);
            task = loop {
                match tasks.recv_timeout(IDLE_TIMEOUT) {
                    Ok(next) => break next,
                    Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                        let mut state = self.lock();
                        match state.idle.iter().position(|idle| idle.id == id) {
                            Some(position) => {
                                state.idle.swap_remove(position);
                                state.threads -= 1;
                                return;
                            }
                            // Taken from the idle list just now: its task is on the way.
                            None => continue,
                        }
                    }
                }
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::{Arc, Barrier};

    #[test]
    fn threads_are_reused_from_task_to_task() {
        static POOL: OnceLock<WorkerPool> = OnceLock::new();
        let pool = POOL.get_or_init(WorkerPool::default);
        let names = Arc::new(Mutex::new(Vec::new()));
        for _ in 0..5 {
            let names = Arc::clone(&names);
            let handle = pool
                .spawn(move || {
                    let name = std::thread::current().name().map(str::to_string);
                    names.lock().expect("not poisoned").push(name);
                })
                .expect("spawns");
            assert!(handle.join());
        }
        let names = names.lock().expect("not poisoned");
        assert!(names.iter().all(|name| name == &names[0]), "{names:?}");
        assert_eq!(pool.threads(), 1);
    }

    #[test]
    fn overlapping_tasks_each_get_a_thread_and_a_panic_is_reported() {
        static POOL: OnceLock<WorkerPool> = OnceLock::new();
        let pool = POOL.get_or_init(WorkerPool::default);
        // Four tasks that can only finish together: none may wait for a thread.
        let barrier = Arc::new(Barrier::new(4));
        let ran = Arc::new(AtomicUsize::new(0));
        let handles: Vec<TaskHandle> = (0..4)
            .map(|_| {
                let (barrier, ran) = (Arc::clone(&barrier), Arc::clone(&ran));
                pool.spawn(move || {
                    barrier.wait();
                    ran.fetch_add(1, Ordering::SeqCst);
                })
                .expect("spawns")
            })
            .collect();
        assert!(handles.into_iter().all(TaskHandle::join));
        assert_eq!(ran.load(Ordering::SeqCst), 4);
        assert_eq!(pool.threads(), 4);
        let panicked = pool.spawn(|| panic!("a task's panic")).expect("spawns");
        assert!(!panicked.join());
        // The thread survives its task's panic and serves the next one.
        assert!(pool.spawn(|| ()).expect("spawns").join());
        assert_eq!(pool.threads(), 4);
    }
}
