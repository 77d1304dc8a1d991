fn main() {
    for src in std::env::args().skip(1) {
        let src = src.replace("\\n", "\n");
        let (m, d) = marsc_grammar::parse(&src);
        println!("{src:?}  stmts={}", m.stmts.len());
        for d in d {
            println!(
                "   {}..{} {} | {} | {:?} | {:?}",
                d.span.start, d.span.end, d.message, d.label, d.help, d.secondary
            );
        }
    }
}
