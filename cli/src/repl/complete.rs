//! Tab completion: the session's variables and the library's bare names, and after
//! a dot the members of what precedes it (`mt.` library functions, `mt.random.`
//! generators, `x.` tensor methods and attributes, `r.` a named tuple's fields),
//! all from the library table.

use marsc::lower::incremental::{bare_names, builtin_members, member_names, Members};
use rustyline::completion::Completer;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};

/// The candidates for the word that ends at the end of `before_cursor`, and where
/// that word starts.
pub fn complete(before_cursor: &str, scope: &[(String, Members)]) -> (usize, Vec<String>) {
    let word_start = before_cursor
        .char_indices()
        .rev()
        .take_while(|&(_, c)| c.is_alphanumeric() || c == '_' || c == '.')
        .last()
        .map_or(before_cursor.len(), |(index, _)| index);
    let word = &before_cursor[word_start..];
    let (start, prefix, names) = match word.rsplit_once('.') {
        Some((object, prefix)) => (
            before_cursor.len() - prefix.len(),
            prefix,
            member_names(members_of_path(object, scope))
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>(),
        ),
        None => {
            let mut names: Vec<String> = scope.iter().map(|(name, _)| name.clone()).collect();
            names.extend(bare_names().into_iter().map(str::to_string));
            (word_start, word, names)
        }
    };
    let mut candidates: Vec<String> = names
        .into_iter()
        .filter(|name| name.starts_with(prefix))
        .collect();
    candidates.sort();
    candidates.dedup();
    (start, candidates)
}

/// What `a.b.c` is, for completing after it.
fn members_of_path(path: &str, scope: &[(String, Members)]) -> Members {
    let mut parts = path.split('.');
    let first = parts.next().unwrap_or_default();
    let mut members = scope
        .iter()
        .find(|(name, _)| name == first)
        .map_or_else(|| builtin_members(first), |&(_, members)| members);
    for part in parts {
        members = match (members, part) {
            (Members::Library, "random") => Members::Random,
            (Members::Library, "linalg") => Members::Linalg,
            (Members::Mars, "tensor") => Members::Library,
            (Members::Tensor, "T") => Members::Tensor,
            (Members::Fields(fields), field) if fields.contains(&field) => Members::Tensor,
            _ => Members::Nothing,
        };
    }
    members
}

/// The rustyline helper: completion from the session's current scope.
#[derive(Default)]
pub struct ReplHelper {
    pub scope: Vec<(String, Members)>,
}

impl Completer for ReplHelper {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let before = line.get(..pos).unwrap_or(line);
        Ok(complete(before, &self.scope))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}

impl Highlighter for ReplHelper {}

impl Validator for ReplHelper {}

impl Helper for ReplHelper {}

#[cfg(test)]
mod tests {
    use super::*;

    fn scope() -> Vec<(String, Members)> {
        vec![
            ("xs".to_string(), Members::Tensor),
            ("xy".to_string(), Members::Nothing),
        ]
    }

    #[test]
    fn variables_and_bare_names() {
        let (start, names) = complete("y = xs", &scope());
        assert_eq!((start, names), (4, vec!["xs".to_string()]));
        let (_, names) = complete("x", &scope());
        assert_eq!(names, ["xs", "xy"]);
        let (_, names) = complete("lins", &scope());
        assert_eq!(names, ["linspace"]);
    }

    #[test]
    fn library_random_and_tensor_members() {
        let (start, names) = complete("mt.ara", &scope());
        assert_eq!((start, names), (3, vec!["arange".to_string()]));
        let (_, names) = complete("np.random.ra", &scope());
        assert!(names.contains(&"randn".to_string()), "{names:?}");
        let (start, names) = complete("(xs.su", &scope());
        assert_eq!((start, names), (4, vec!["sum".to_string()]));
        let (_, names) = complete("xs.sh", &scope());
        assert_eq!(names, ["shape"]);
        let (_, names) = complete("xy.", &scope());
        assert!(names.is_empty());
    }

    #[test]
    fn named_tuple_fields_then_tensor_members() {
        let scope = vec![("r".to_string(), Members::Fields(&["Q", "R"]))];
        let (start, names) = complete("print(r.", &scope);
        assert_eq!((start, names), (8, vec!["Q".to_string(), "R".to_string()]));
        let (_, names) = complete("r.Q.sh", &scope);
        assert_eq!(names, ["shape"]);
        let (_, names) = complete("r.q.", &scope);
        assert!(names.is_empty());
    }
}
