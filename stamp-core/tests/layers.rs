//! The layers of stamp-core (ARCHITECTURE.md, "Layers"): a module uses its
//! own layer and the layers below, never one above, and names what it uses
//! by the module that defines it, not through the crate root's re-exports
//! (issue 41, point 5). This test reads `src/**/*.rs` and fails naming each
//! file and line that breaks a rule.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers, lowest first. A module may use the modules of its own layer
/// and of the layers before it.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundation: limits, errors, keys, model, item codec, expressions",
        &[
            "limits",
            "unit",
            "error",
            "key",
            "model",
            "item",
            "expression",
        ],
    ),
    ("request: the executor and Table", &["request"]),
    ("operations", &["ops"]),
    (
        "jobs and tooling",
        &["schema", "migrate", "export", "streams"],
    ),
    ("the test kit and the local server", &["local", "testing"]),
    (
        "the facades: the crate root, the public modules, the derive's runtime",
        &["lib", "surface", "__private"],
    ),
];

/// The files that may name a root re-export in code (`crate::Name`): the
/// root and the public modules are the re-exports.
const ROOT_NAMES_ALLOWED: &[&str] = &["lib.rs", "surface.rs"];

/// Files (or folders, ending in `/`) that may still name root re-exports
/// while a change moves them: empty when every file imports from the
/// defining module (`pending_files_still_pending` says when an entry is no
/// longer needed).
const PENDING: &[&str] = &[];

fn pending(relative: &str) -> bool {
    PENDING.iter().any(|entry| {
        if entry.ends_with('/') {
            relative.starts_with(entry)
        } else {
            relative == *entry
        }
    })
}

/// Uses of a higher layer that stay, each with its reason: `(file, the
/// module it uses)`.
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "request/table.rs",
        "ops",
        "Table's entry points with an `E: Entity` bound (get, put, create, delete, rekey) stay in Table's module, so that a bound's error names `stamp::Table::put`, not a private module (stamp-ui/tests/ui/table/not-an-entity.rs)",
    ),
    (
        "request/table.rs",
        "streams",
        "Table::changes has a `C: Collection` bound: as above",
    ),
    (
        "key/fill.rs",
        "ops",
        "`query`, the generated query entry point, returns a `Query`; __private.rs re-exports it from here (moves with the derive's rewrite, issue 41.1)",
    ),
    (
        "key/fill.rs",
        "__private",
        "`decode_key_segment` is defined in __private.rs (moves with the derive's rewrite, issue 41.1)",
    ),
    (
        "key/part.rs",
        "__private",
        "`key_example` is defined in __private.rs (moves with the derive's rewrite, issue 41.1)",
    ),
    (
        "ops/search/send.rs",
        "__private",
        "`has_type` is defined in __private.rs (moves with the derive's rewrite, issue 41.1)",
    ),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read src")
        .map(|entry| entry.expect("entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// `text` without comments (line, doc and block) and without the contents
/// of string and char literals, line numbers kept.
fn code_only(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'*') {
            i += 2;
            while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                if bytes[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 2;
        } else if c == b'r'
            && matches!(bytes.get(i + 1), Some(b'"' | b'#'))
            && !ident_before(bytes, i)
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while bytes.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if bytes.get(j) != Some(&b'"') {
                out.push(c as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= bytes.len() {
                    break;
                }
                if bytes[j] == b'"'
                    && bytes[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&b| b == b'#')
                        .count()
                        == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                if bytes[j] == b'\n' {
                    out.push('\n');
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                if bytes.get(i) == Some(&b'\n') {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' && is_char_literal(bytes, i) {
            i += 1;
            while i < bytes.len() && bytes[i] != b'\'' {
                if bytes[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("' '");
        } else {
            // Copy one UTF-8 character whole.
            let len = utf8_len(c);
            out.push_str(&text[i..i + len]);
            i += len;
        }
    }
    out
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

fn ident_before(bytes: &[u8], i: usize) -> bool {
    i > 0 && (bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_')
}

/// Whether the `'` at `i` opens a char literal (`'a'`, `'\n'`), not a
/// lifetime (`'a`, `'static`).
fn is_char_literal(bytes: &[u8], i: usize) -> bool {
    match bytes.get(i + 1) {
        Some(b'\\') => true,
        Some(_) => {
            // One character, then a closing quote.
            let len = utf8_len(bytes[i + 1]);
            bytes.get(i + 1 + len) == Some(&b'\'')
        }
        None => false,
    }
}

/// The crate root's re-exports: name -> the top module it comes from, read
/// from lib.rs's `pub use` lines.
fn root_names(lib: &str) -> BTreeMap<String, String> {
    let code = code_only(lib);
    let mut names = BTreeMap::new();
    for statement in code.split(';') {
        let statement = statement.trim();
        let Some(rest) = statement
            .lines()
            .map(str::trim)
            .filter(|line| !line.starts_with("#["))
            .collect::<Vec<_>>()
            .join(" ")
            .strip_prefix("pub use ")
            .map(str::to_owned)
        else {
            continue;
        };
        let top = rest.split("::").next().unwrap_or("").trim().to_owned();
        if rest.contains('{') {
            let inside = &rest[rest.find('{').unwrap() + 1..rest.rfind('}').unwrap_or(rest.len())];
            for item in inside.split(',') {
                let item = item.trim();
                if !item.is_empty() {
                    names.insert(item.to_owned(), top.clone());
                }
            }
        } else if let Some(last) = rest.rsplit("::").next() {
            names.insert(last.trim().to_owned(), top.clone());
        }
    }
    names
}

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

/// Every `crate::first` path of `code`, with its line: `first` is the
/// segment after `crate::`, or each first segment of a `crate::{…}` group.
fn crate_paths(code: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut search = 0;
    while let Some(at) = code[search..].find("crate::") {
        let start = search + at;
        search = start + "crate::".len();
        if ident_before(code.as_bytes(), start) {
            continue;
        }
        let line = code[..start].matches('\n').count() + 1;
        let rest = &code[search..];
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group.
            let mut depth = 0;
            let mut item_start = true;
            let mut offset = 0;
            for (index, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_alphanumeric() || c == '_') => {
                        item_start = false;
                        let ident: String = group[index..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        let item_line = line + group[..index].matches('\n').count();
                        found.push((item_line, ident));
                    }
                    _ => {}
                }
                offset = index;
            }
            let _ = offset;
        } else {
            let ident: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !ident.is_empty() {
                found.push((line, ident));
            }
        }
    }
    found
}

/// Every `crate::UpperCaseName` of a root re-export in code outside
/// [`ROOT_NAMES_ALLOWED`]: code imports a name from the module that defines
/// it, so that a reader (and [`check`]) sees which layer it comes from.
fn root_name_uses() -> Vec<Offence> {
    let src = src();
    let names = root_names(&std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs"));
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offences = Vec::new();
    for path in files {
        let relative = path
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if ROOT_NAMES_ALLOWED.contains(&relative.as_str()) || pending(&relative) {
            continue;
        }
        let code = code_only(&std::fs::read_to_string(&path).expect("read"));
        for (line, first) in crate_paths(&code) {
            if first.starts_with(|c: char| c.is_ascii_uppercase()) {
                let defined = names
                    .get(&first)
                    .map_or("its defining module".to_owned(), |top| {
                        format!("`crate::{top}::…`")
                    });
                offences.push(Offence {
                    file: relative.clone(),
                    line,
                    what: format!(
                        "`crate::{first}` goes through the crate root: import it from {defined}"
                    ),
                });
            }
        }
    }
    offences
}

struct Offence {
    file: String,
    line: usize,
    what: String,
}

fn check() -> Vec<Offence> {
    let src = src();
    let names = root_names(&std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs"));
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offences = Vec::new();
    for path in files {
        let relative = path
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        let module = relative
            .split('/')
            .next()
            .expect("a path")
            .trim_end_matches(".rs")
            .to_owned();
        let Some(own) = layer_of(&module) else {
            offences.push(Offence {
                file: relative.clone(),
                line: 1,
                what: format!(
                    "module `{module}` is in no layer: add it to LAYERS and ARCHITECTURE.md"
                ),
            });
            continue;
        };
        let code = code_only(&std::fs::read_to_string(&path).expect("read"));
        for (line, first) in crate_paths(&code) {
            let is_root_name = names.contains_key(&first) && layer_of(&first).is_none();
            let used = if is_root_name {
                names[&first].clone()
            } else {
                first.clone()
            };
            let Some(theirs) = layer_of(&used) else {
                continue;
            };
            if theirs > own
                && !ALLOWED
                    .iter()
                    .any(|(file, upper, _)| *file == relative && *upper == used)
            {
                offences.push(Offence {
                    file: relative.clone(),
                    line,
                    what: format!(
                        "`{module}` ({}) uses `{used}` ({}), a higher layer (`crate::{first}`)",
                        LAYERS[own].0, LAYERS[theirs].0
                    ),
                });
            }
        }
    }
    offences
}

#[test]
fn lower_layers_use_nothing_above_them() {
    let offences = check();
    let report: Vec<String> = offences
        .iter()
        .map(|offence| format!("src/{}:{}: {}", offence.file, offence.line, offence.what))
        .collect();
    assert!(
        report.is_empty(),
        "{} uses break stamp-core's layers (ARCHITECTURE.md, \"Layers\"):\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn code_imports_from_the_defining_module() {
    let report: Vec<String> = root_name_uses()
        .iter()
        .map(|offence| format!("src/{}:{}: {}", offence.file, offence.line, offence.what))
        .collect();
    assert!(
        report.is_empty(),
        "{} uses of the crate root's re-exports inside stamp-core:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn pending_files_still_pending() {
    let src = src();
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    for entry in PENDING {
        let still = files.iter().any(|path| {
            let relative = path
                .strip_prefix(&src)
                .expect("under src")
                .to_string_lossy()
                .replace('\\', "/");
            pending(&relative)
                && crate_paths(&code_only(&std::fs::read_to_string(path).expect("read")))
                    .iter()
                    .any(|(_, first)| first.starts_with(|c: char| c.is_ascii_uppercase()))
        });
        assert!(
            still,
            "src/{entry} names no root re-export any more: remove it from PENDING"
        );
    }
}

#[test]
fn every_allowed_use_is_still_there() {
    let src = src();
    for (file, upper, reason) in ALLOWED {
        let code = code_only(&std::fs::read_to_string(src.join(file)).expect("allowed file"));
        let names = root_names(&std::fs::read_to_string(src.join("lib.rs")).expect("lib.rs"));
        let still = crate_paths(&code)
            .iter()
            .any(|(_, first)| first == upper || names.get(first).is_some_and(|top| top == upper));
        assert!(
            still,
            "src/{file} no longer uses `{upper}`: remove its entry from ALLOWED ({reason})"
        );
    }
}

#[test]
fn the_checker_sees_paths_in_groups_and_ignores_comments() {
    let code = code_only(
        "// crate::ops::x\nuse crate::{\n    error::Error,\n    Table,\n};\nlet s = \"crate::ops\";\nlet c = '\"'; let l: &'static str = crate::request::x;\n",
    );
    let paths = crate_paths(&code);
    assert_eq!(
        paths,
        vec![
            (3, "error".to_owned()),
            (4, "Table".to_owned()),
            (7, "request".to_owned())
        ]
    );
}
