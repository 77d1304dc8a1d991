use super::support::*;
#[test]
fn scratch() {
    let src = std::fs::read_to_string("/tmp/scratch/a.mt").unwrap();
    match lower_script(&src) {
        Ok(g) => println!("{}", g.with_source(&src)),
        Err(e) => for d in e { println!("ERR {} @{:?} [{}] help={:?}", d.message, d.span, &src[d.span.range()], d.help) },
    }
}
