fn main() {
    for path in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&path).unwrap();
        let (m, d) = marsc_grammar::parse(&src);
        let lines = marsc_grammar::LineIndex::new(&src);
        println!("{path}  stmts={}", m.stmts.len());
        for d in d {
            println!(
                "   {} {} | {} | {:?} | {:?}",
                lines.format_span(d.span),
                d.message,
                d.label,
                d.help,
                d.secondary
            );
        }
    }
}
