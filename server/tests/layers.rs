//! The server's layers, read from its source: which module may import which. A module imports
//! another by a `use` of it or a `crate::`/`super::` path into it. Two rules, as the README's
//! "Layers" notes say:
//! - no circle of imports among files (sea-orm's entities, whose relations name each other, count
//!   as one module, as do the migrations);
//! - a module imports only from its own floor or those below it, and only the composition root
//!   (`state`, `lib`, `main`) and `routes` see `AppState`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Floors, lowest first; a top-level module not named here fails the test (give it a floor).
const FLOORS: &[&[&str]] = &[
    // The small context and what every area may use.
    &[
        "platform",
        "ctx",
        "events",
        "error",
        "time",
        "pagination",
        "validation",
        "i18n",
        "client_addr",
        "config",
        "area",
        "mail",
        "sms",
        "entity",
        "migration",
        "db",
        "lease",
        "limits",
        "outbox",
    ],
    &["points"],
    &["auth"],
    // The request's caller, session and client (extractors over `auth`).
    &["extract"],
    &["uploads"],
    // Prices: below content, whose token chips carry them.
    &["markets"],
    // The catalogue compiled for entity linking: content links every item it stores.
    &["linking"],
    &["content"],
    &["social"],
    &["community"],
    &["bots"],
    &["alerts", "feedback", "track"],
    // Live events for every area's readers.
    &["stream"],
    // Jobs that reach into several areas.
    &["cleanup"],
    // The HTTP surface and the composition root that builds every area's state for it.
    &["openapi", "routes", "state"],
    &["lib", "main", "typescript"],
];

/// Modules that may name `AppState`.
const SEES_APP_STATE: &[&str] = &["state", "lib", "main", "routes", "typescript"];

/// The source without comments, string and character literals (their text is not code).
fn code_only(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &source[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if let Some(len) = raw_string_len(rest, i == 0 || !is_ident(bytes[i - 1])) {
            i += len;
        } else if rest.starts_with('"') {
            let mut j = 1;
            while j < rest.len() && rest.as_bytes()[j] != b'"' {
                j += if rest.as_bytes()[j] == b'\\' { 2 } else { 1 };
            }
            i += j + 1;
        } else if let Some(len) = char_literal_len(rest) {
            i += len;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// `r"…"`, `r#"…"#`, `br"…"`: their length, where `rest` starts one.
fn raw_string_len(rest: &str, at_token_start: bool) -> Option<usize> {
    if !at_token_start {
        return None;
    }
    let body = rest.strip_prefix("br").or_else(|| rest.strip_prefix('r'))?;
    let hashes = body.len() - body.trim_start_matches('#').len();
    let after = body[hashes..].strip_prefix('"')?;
    let close = format!("\"{}", "#".repeat(hashes));
    let end = after.find(&close)?;
    Some(rest.len() - after.len() + end + close.len())
}

/// `'a'`, `'\n'`, `'\''` (not a lifetime): its length.
fn char_literal_len(rest: &str) -> Option<usize> {
    let body = rest.strip_prefix('\'')?;
    let mut chars = body.char_indices();
    let (_, first) = chars.next()?;
    let after = if first == '\\' {
        let (_, escaped) = chars.next()?;
        if escaped == 'u' {
            return body.find('}').map(|end| end + 3);
        }
        chars.next()?
    } else {
        chars.next()?
    };
    (after.1 == '\'').then_some(1 + after.0 + 1)
}

/// Every path a `use` item names, its groups expanded (`a::{b, c::d}` → `a::b`, `a::c::d`).
fn use_paths(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let base = tree[..open].trim_end_matches("::");
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let prefix = join(prefix, base);
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    use_paths(&inner[start..i], &prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        use_paths(&inner[start..], &prefix, out);
    } else if !tree.is_empty() {
        let path = tree.split(" as ").next().unwrap_or(tree).trim();
        out.push(join(prefix, path));
    }
}

fn join(prefix: &str, path: &str) -> String {
    match (prefix.is_empty(), path.is_empty()) {
        (true, _) => path.to_owned(),
        (_, true) => prefix.to_owned(),
        _ => format!("{prefix}::{path}"),
    }
}

/// Paths written in code: `crate::a::b`, `super::a`, `self::a`.
fn inline_paths(code: &str, out: &mut Vec<String>) {
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let at = from + at;
            from = at + start.len();
            if at > 0 && is_ident(code.as_bytes()[at - 1]) {
                continue;
            }
            let end = code[at..]
                .find(|c: char| !(is_ident(c as u8) || c == ':'))
                .map_or(code.len(), |e| at + e);
            out.push(code[at..end].trim_end_matches(':').to_owned());
        }
    }
}

/// The server's modules: each file's module path (`content/write/feed.rs` → `content::write::feed`).
fn modules(src: &Path) -> BTreeMap<Vec<String>, String> {
    let mut found = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("under src");
                let mut parts: Vec<String> = rel
                    .with_extension("")
                    .iter()
                    .map(|p| p.to_string_lossy().into_owned())
                    .collect();
                if matches!(
                    parts.last().map(String::as_str),
                    Some("mod" | "lib" | "main")
                ) {
                    parts.pop();
                    if parts.is_empty() {
                        parts.push(rel.with_extension("").to_string_lossy().into_owned());
                    }
                }
                let source = std::fs::read_to_string(&path).expect("read file");
                found.insert(parts, source);
            }
        }
    }
    found
}

/// The node a module counts as: entities and migrations are one each.
fn node(module: &[String]) -> String {
    match module.first().map(String::as_str) {
        Some(area @ ("entity" | "migration")) => area.to_owned(),
        _ => module.join("::"),
    }
}

fn floor(area: &str) -> usize {
    FLOORS
        .iter()
        .position(|floor| floor.contains(&area))
        .unwrap_or_else(|| panic!("`{area}` has no floor in tests/layers.rs: give it one"))
}

/// The file-level import graph: node → nodes it imports.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules(src);
    let root_files = ["lib", "main"];
    let resolve = |path: &[String]| -> Option<Vec<String>> {
        (1..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|prefix| modules.contains_key(prefix))
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, source) in &modules {
        let code = code_only(source);
        let mut paths = Vec::new();
        let mut from = 0;
        while let Some(at) = code[from..].find("use ") {
            let at = from + at;
            from = at + 4;
            if at > 0 && is_ident(code.as_bytes()[at - 1]) {
                continue;
            }
            if let Some(end) = code[at..].find(';') {
                use_paths(&code[at + 4..at + end], "", &mut paths);
            }
        }
        inline_paths(&code, &mut paths);
        // `super::` is relative to the file's own module (`mod.rs` files are their directory).
        let is_root = module.len() == 1 && root_files.contains(&module[0].as_str());
        let here: Vec<String> = if is_root { Vec::new() } else { module.clone() };
        let mut targets = BTreeSet::new();
        for path in paths {
            let mut parts = path.split("::").map(str::to_owned);
            let absolute: Vec<String> = match parts.next().as_deref() {
                Some("crate") => parts.collect(),
                Some("self") => here.iter().cloned().chain(parts).collect(),
                Some("super") => {
                    let mut base = here[..here.len().saturating_sub(1)].to_vec();
                    let mut rest: Vec<String> = parts.collect();
                    while rest.first().is_some_and(|p| p == "super") {
                        base.pop();
                        rest.remove(0);
                    }
                    base.into_iter().chain(rest).collect()
                }
                _ => continue,
            };
            if let Some(target) = resolve(&absolute)
                && node(&target) != node(module)
            {
                targets.insert(node(&target));
            }
        }
        edges.entry(node(module)).or_default().extend(targets);
    }
    edges
}

/// Circles of imports (strongly connected components of more than one node), by Tarjan.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.edges.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().rposition(|x| *x == v).unwrap_or(0);
                let component: Vec<String> = self.stack.drain(at..).map(str::to_owned).collect();
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found
}

fn area(node: &str) -> &str {
    node.split("::").next().unwrap_or(node)
}

fn src() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_imports_in_a_circle() {
    let found = circles(&graph(&src()));
    assert!(
        found.is_empty(),
        "import circles (cut each with a lower shared piece): {found:#?}"
    );
}

#[test]
fn every_module_imports_only_from_its_floor_or_below() {
    let mut above = Vec::new();
    for (from, targets) in graph(&src()) {
        for to in targets {
            if floor(area(&to)) > floor(area(&from)) {
                above.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(above.is_empty(), "imports from a higher floor: {above:#?}");
}

#[test]
fn only_the_composition_root_and_routes_see_app_state() {
    let seen: Vec<String> = modules(&src())
        .into_iter()
        .filter(|(module, source)| {
            !SEES_APP_STATE.contains(&module[0].as_str()) && code_only(source).contains("AppState")
        })
        .map(|(module, _)| module.join("::"))
        .collect();
    assert!(seen.is_empty(), "AppState named below routes: {seen:?}");
}

/// The checker itself: it sees a circle and an import from above where there are.
#[test]
fn the_checker_finds_circles_and_imports_from_above() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.insert("social::a".into(), ["content::b".into()].into());
    edges.insert("content::b".into(), ["social::a".into()].into());
    edges.insert("points::c".into(), BTreeSet::new());
    assert_eq!(circles(&edges).len(), 1);
    assert!(floor("content") < floor("social"));

    let mut paths = Vec::new();
    use_paths("crate::{a::X, b::{c, d::Y as Z}}", "", &mut paths);
    assert_eq!(paths, ["crate::a::X", "crate::b::c", "crate::b::d::Y"]);
    assert_eq!(
        code_only("let s = \"crate::x\"; // crate::y\nlet c = '\"'; crate::z"),
        "let s = ; \nlet c = ; crate::z"
    );
}
