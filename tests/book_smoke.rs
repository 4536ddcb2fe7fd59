mod common;
use common::*;

#[test]
fn the_small_contract_book_is_clean_and_renders() {
    let fixture = Fixture::new(&contract_book());
    let report = fixture.check();
    assert_eq!(report.render(mdbook_contract::diagnostic::Format::Short, false), "src/appendix/existing.md:16:48: warning[unknown-claim]: the profile of `vms` on axis `create-return` is not verified yet\n");
    let appendix = fixture.chapter("appendix/existing.md");
    println!("{appendix}");
    println!("{}", fixture.chapter("contract.md"));
    println!("{}", fixture.chapter("template.md"));
    let (result, out) = fixture.build();
    result.unwrap();
    assert!(fixture.html(&out, "appendix/existing.html").contains("<table>"));
}
