//! How a [`TableSnapshot`] is drawn (`Display`, `Debug`): a row per item,
//! values in a short form of DynamoDB JSON.

use super::*;

impl<C> fmt::Display for TableSnapshot<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.rows.len();
        let items = if count == 1 { "item" } else { "items" };
        if self.table.is_empty() {
            writeln!(f, "expected table ({count} {items})")?;
        } else {
            writeln!(f, "table {} ({count} {items})", self.table)?;
        }
        let mut header = vec![self.partition_key.clone()];
        header.extend(self.sort_key.clone());
        header.push(self.type_attribute.clone());
        header.push("attributes".to_owned());
        let lines: Vec<Vec<String>> = self
            .rows
            .iter()
            .map(|row| {
                let mut cells = vec![self.key_text(row, true)];
                cells.extend(self.sort_text(row));
                cells.push(
                    row.stored
                        .get(&self.type_attribute)
                        .map_or_else(|| "-".to_owned(), key_value_text),
                );
                let mut names: Vec<&String> = row
                    .stored
                    .keys()
                    .filter(|name| {
                        **name != self.partition_key
                            && Some(*name) != self.sort_key.as_ref()
                            && **name != self.type_attribute
                    })
                    .collect();
                names.sort();
                let attributes: Vec<String> = names
                    .into_iter()
                    .map(|name| format!("{name}={}", value_text(&row.stored[name])))
                    .collect();
                cells.push(attributes.join(", "));
                cells
            })
            .collect();
        let columns = header.len();
        let widths: Vec<usize> = (0..columns - 1)
            .map(|column| {
                std::iter::once(&header)
                    .chain(&lines)
                    .map(|line| line[column].chars().count())
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        let draw = |f: &mut fmt::Formatter<'_>, line: &[String]| -> fmt::Result {
            for (column, cell) in line.iter().enumerate() {
                if column + 1 < columns {
                    write!(f, "{cell:<width$} | ", width = widths[column])?;
                } else {
                    writeln!(f, "{cell}")?;
                }
            }
            Ok(())
        };
        draw(f, &header)?;
        let rule: Vec<String> = widths.iter().map(|width| "-".repeat(*width)).collect();
        writeln!(f, "{}-+-{}", rule.join("-+-"), "-".repeat(10))?;
        for line in &lines {
            draw(f, line)?;
        }
        Ok(())
    }
}

impl<C> fmt::Debug for TableSnapshot<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A key value as it is drawn: a string as it is, a number as its digits.
pub(super) fn key_value_text(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(text) => text.clone(),
        AttributeValue::N(number) => number.clone(),
        other => value_text(other),
    }
}

/// An attribute value in a short form of DynamoDB JSON.
fn value_text(value: &AttributeValue) -> String {
    match value {
        AttributeValue::S(text) => format!("{text:?}"),
        AttributeValue::N(number) => number.clone(),
        AttributeValue::Bool(value) => value.to_string(),
        AttributeValue::Null(_) => "null".to_owned(),
        AttributeValue::B(blob) => format!("b{:?}", String::from_utf8_lossy(blob.as_ref())),
        AttributeValue::L(values) => format!(
            "[{}]",
            values.iter().map(value_text).collect::<Vec<_>>().join(", ")
        ),
        AttributeValue::M(map) => {
            let mut names: Vec<&String> = map.keys().collect();
            names.sort();
            let fields: Vec<String> = names
                .into_iter()
                .map(|name| format!("{name}: {}", value_text(&map[name])))
                .collect();
            format!("{{{}}}", fields.join(", "))
        }
        AttributeValue::Ss(values) => set_text(values.iter().map(|text| format!("{text:?}"))),
        AttributeValue::Ns(values) => set_text(values.iter().cloned()),
        AttributeValue::Bs(values) => set_text(
            values
                .iter()
                .map(|blob| format!("b{:?}", String::from_utf8_lossy(blob.as_ref()))),
        ),
        _ => "?".to_owned(),
    }
}

/// A set, its elements sorted (DynamoDB keeps no order in a set).
fn set_text(elements: impl Iterator<Item = String>) -> String {
    let mut elements: Vec<String> = elements.collect();
    elements.sort();
    format!("<<{}>>", elements.join(", "))
}
