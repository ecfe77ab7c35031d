//! Compile errors of the derives: one fixture per message, each with its
//! committed `.stderr`. (Code that must compile is an ordinary test,
//! `full_grammar.rs`: without `pass` cases trybuild runs `cargo check`.)
#[test]
fn compile_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*/*.rs");
    cases.compile_fail("tests/ui/*.rs");
}
