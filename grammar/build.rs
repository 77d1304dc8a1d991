//! Generates the parser from `src/grammar.lalrpop` into `OUT_DIR` at build time.

fn main() {
    lalrpop::process_src().expect("the grammar in src/grammar.lalrpop must generate");
}
