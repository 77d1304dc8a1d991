//! What a verifier found: every broken invariant of an IR, each naming the entity
//! it is about (a node, a step, a chunk, a subtask), so a broken IR is reported
//! whole rather than by its first symptom. The compiler's verifiers and the plan's
//! ([`crate::plan::Plan::check`]) report this way.

use std::fmt;

/// One broken invariant a verifier found: the entity it is about (a node, a step,
/// a chunk, a subtask; none for a graph-wide fact) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    pub entity: Option<String>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.entity {
            Some(entity) => write!(f, "{entity}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Every problem a verifier found (at most one per entity, naming it), so a broken
/// IR is reported whole rather than by its first symptom.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems(Vec<Problem>);

impl Problems {
    /// Records the problem of one check of `entity`, if any.
    pub fn check(&mut self, entity: impl fmt::Display, result: Result<(), impl fmt::Display>) {
        if let Err(problem) = result {
            self.0.push(Problem {
                entity: Some(entity.to_string()),
                message: problem.to_string(),
            });
        }
    }

    /// Records a problem of the graph as a whole (no one entity).
    pub fn graph_wide(&mut self, message: impl Into<String>) {
        self.0.push(Problem {
            entity: None,
            message: message.into(),
        });
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The problems found, in the order found.
    pub fn problems(&self) -> &[Problem] {
        &self.0
    }

    /// `Ok` if nothing was found; else every problem.
    pub fn into_result(self) -> Result<(), Problems> {
        match self.0.is_empty() {
            true => Ok(()),
            false => Err(self),
        }
    }
}

/// The problem, or every problem one per line after their count.
impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.as_slice() {
            [] => Ok(()),
            [only] => write!(f, "{only}"),
            all => {
                write!(f, "{} problems:", all.len())?;
                all.iter().try_for_each(|problem| write!(f, "\n{problem}"))
            }
        }
    }
}

impl std::error::Error for Problems {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_all_reported() {
        let mut problems = Problems::default();
        problems.check("t0", Ok::<(), String>(()));
        assert!(problems.into_result().is_ok());
        let mut problems = Problems::default();
        problems.check("t1", Err("wrong shape"));
        problems.check("t4", Err("wrong dtype"));
        problems.graph_wide("output 0 names t9, which does not exist");
        let found = problems.into_result().unwrap_err();
        assert_eq!(found.problems().len(), 3);
        assert_eq!(found.problems()[1].entity.as_deref(), Some("t4"));
        assert_eq!(
            found.to_string(),
            "3 problems:\nt1: wrong shape\nt4: wrong dtype\noutput 0 names t9, which does not exist"
        );
        let mut one = Problems::default();
        one.check("t1", Err("wrong shape"));
        assert_eq!(
            one.into_result().unwrap_err().to_string(),
            "t1: wrong shape"
        );
    }
}
