//! The key template grammar: `LITERAL<field>LITERAL<field>…`.

/// One parsed piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    Literal(String),
    Field(String),
    /// `<shard>` at the end of a sharded GSI's partition key, with the
    /// shard count (set by the index's `shards = N`, not by the parser).
    Shard(u16),
}

/// A syntax error: what is wrong, and what would be right.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub what: String,
    pub fix: String,
}

fn syntax_error(what: String, fix: String) -> Result<Vec<Piece>, SyntaxError> {
    Err(SyntaxError { what, fix })
}

/// Parses `source` into pieces.
pub fn parse(source: &str) -> Result<Vec<Piece>, SyntaxError> {
    if source.is_empty() {
        return syntax_error(
            "empty template".to_owned(),
            "give a constant such as \"PROFILE\" or a template such as \"USER#<id>\"".to_owned(),
        );
    }
    let mut pieces = Vec::new();
    let mut rest = source;
    while !rest.is_empty() {
        match rest.find(['<', '>']) {
            None => {
                pieces.push(Piece::Literal(rest.to_owned()));
                rest = "";
            }
            Some(start) if rest.as_bytes()[start] == b'>' => {
                return syntax_error(
                    format!("unmatched `>` after `{}`", &rest[..start]),
                    "a placeholder is written `<field>`".to_owned(),
                );
            }
            Some(start) => {
                if start > 0 {
                    pieces.push(Piece::Literal(rest[..start].to_owned()));
                }
                let after = &rest[start + 1..];
                let end = match after.find(['<', '>']) {
                    Some(end) if after.as_bytes()[end] == b'>' => end,
                    _ => {
                        let unclosed = after.find('<').map_or(after, |end| &after[..end]);
                        return syntax_error(
                            format!("unclosed `<` in placeholder `<{unclosed}`"),
                            format!("close it with `>`, like `<{unclosed}>`"),
                        );
                    }
                };
                let name = &after[..end];
                if name.is_empty() {
                    return syntax_error(
                        "empty placeholder `<>`".to_owned(),
                        "name a field between `<` and `>`, like `<id>`".to_owned(),
                    );
                }
                if let Some(Piece::Field(previous)) = pieces.last() {
                    return syntax_error(
                        format!("adjacent placeholders `<{previous}><{name}>`"),
                        format!(
                            "put a delimiter between them, like `<{previous}>#<{name}>`, so that the key can be parsed back"
                        ),
                    );
                }
                pieces.push(Piece::Field(name.to_owned()));
                rest = &after[end + 1..];
            }
        }
    }
    for window in pieces.windows(2) {
        if let [Piece::Field(name), Piece::Literal(text)] = window {
            let first = text.chars().next().expect("literals are not empty");
            if !can_end_a_field(first) {
                return syntax_error(
                    format!("delimiter `{text}` after `<{name}>` begins with `{first}`, which sorts above `%`"),
                    "begin it with a character that sorts below `%`, such as `#` (or `$`, `!`, a space), \
                     so that an escaped value never contains it: then the key parses back and sorts in the order of the values"
                        .to_owned(),
                );
            }
        }
    }
    Ok(pieces)
}

/// Whether a character may begin a literal that follows a placeholder: it
/// must sort below `%`, the escape character, so that no escaped field value
/// contains it (every character up to `%` is escaped, see
/// `stamp_core::KeyTemplate::ESCAPED`) and a field's encoding sorts above the
/// delimiter that ends it.
pub fn can_end_a_field(c: char) -> bool {
    c < '%'
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(name: &str) -> Piece {
        Piece::Field(name.to_owned())
    }

    fn literal(text: &str) -> Piece {
        Piece::Literal(text.to_owned())
    }

    #[test]
    fn parses_literals_and_fields() {
        assert_eq!(
            parse("ORDER#<created_at>#<order_id>").unwrap(),
            vec![
                literal("ORDER#"),
                field("created_at"),
                literal("#"),
                field("order_id")
            ]
        );
        assert_eq!(parse("PROFILE").unwrap(), vec![literal("PROFILE")]);
        assert_eq!(parse("<updated_at>").unwrap(), vec![field("updated_at")]);
    }

    fn what(source: &str) -> String {
        parse(source).unwrap_err().what
    }

    #[test]
    fn reports_syntax_errors() {
        assert_eq!(what("USER#<id"), "unclosed `<` in placeholder `<id`");
        assert_eq!(what("USER#<a<b>"), "unclosed `<` in placeholder `<a`");
        assert_eq!(what("USER#<>"), "empty placeholder `<>`");
        assert_eq!(what("<a><b>"), "adjacent placeholders `<a><b>`");
        assert_eq!(what("A>B"), "unmatched `>` after `A`");
        assert_eq!(what(""), "empty template");
    }

    #[test]
    fn a_delimiter_after_a_field_begins_below_the_escape_character() {
        assert_eq!(
            what("<x>0<y>"),
            "delimiter `0` after `<x>` begins with `0`, which sorts above `%`"
        );
        assert_eq!(
            what("<a>::<b>"),
            "delimiter `::` after `<a>` begins with `:`, which sorts above `%`"
        );
        assert_eq!(
            what("A#<a>-1"),
            "delimiter `-1` after `<a>` begins with `-`, which sorts above `%`"
        );
        assert!(parse("ORDER#<a>#ITEM#<b>").is_ok());
        assert!(parse("X:<a>$<b> END").is_ok());
    }
}
