// A struct without `#[derive(Item)]` given to the table's methods: the
// error names `stamp::Table`'s method, not a private module of stamp-core.
struct Note {
    text: String,
}

async fn store(table: &stamp::Table, note: &Note) {
    let _ = table.put(note).await;
    let _ = table.rekey(note, note).await;
}

fn main() {
    let _ = store;
}
