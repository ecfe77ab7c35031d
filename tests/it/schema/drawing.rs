//! The catalogue's drawing of the table (`TableDefinition::catalogue`,
//! sections "Items as stored" and "Diagram"), without a server. Items of a
//! partition are listed in the order DynamoDB keeps them: by sort key, in
//! UTF-8 byte order ("Working with queries", Amazon DynamoDB Developer
//! Guide).

use serde::{Deserialize, Serialize};
use stamp::{Item, TableDefinition};

/// A board and its cards in one partition; cards also in a sparse GSI1.
#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BOARD#<board_id>"]
#[sk = "META"]
struct Board {
    board_id: String,
    title: String,
}

#[derive(Item, Serialize, Deserialize, Debug, Clone, PartialEq)]
#[pk = "BOARD#<board_id>"]
#[sk = "CARD#<position>"]
#[gsi1(pk = "OWNER#<owner>", sk = "<position>")]
struct Card {
    board_id: String,
    position: u32,
    owner: Option<String>,
    text: String,
    done: bool,
    points: u8,
    color: String,
    due: String,
}

/// The section of `catalogue` from heading `from` to the next `## `.
fn section<'a>(catalogue: &'a str, from: &str) -> &'a str {
    let start = catalogue.find(from).expect("the section is there");
    let rest = &catalogue[start + from.len()..];
    &catalogue[start..start + from.len() + rest.find("\n## ").unwrap_or(rest.len())]
}

#[test]
fn schema_drawing_lists_a_partition_s_items_in_sort_key_order_with_their_keys() {
    let catalogue = TableDefinition::new()
        .entity::<Board>()
        .entity::<Card>()
        .catalogue()
        .unwrap();
    let drawing = section(&catalogue, "## Items as stored");
    // `CARD#…` sorts before `META` (C < M); the board is in no index, so
    // its GSI1 cells are blank; without recorded examples, attributes show
    // their names, four at most.
    let table = "\
### table: `PK = BOARD#<board_id>`

| `PK` | `SK` | `GSI1PK` | `GSI1SK` | `Type` | attributes |
|---|---|---|---|---|---|
| `BOARD#board_id-1` | `CARD#0000000001` | `OWNER#owner-1` | `0000000001` | `Card` | `owner`, `text`, `done`, `points`, … |
| `BOARD#board_id-1` | `META` |  |  | `Board` | `title` |
";
    assert!(drawing.contains(table), "{drawing}");
    let gsi = "\
### `GSI1`: `GSI1PK = OWNER#<owner>`

| `GSI1PK` | `GSI1SK` | `PK` | `SK` | `Type` | attributes |
|---|---|---|---|---|---|
| `OWNER#owner-1` | `0000000001` | `BOARD#board_id-1` | `CARD#0000000001` | `Card` | `owner`, `text`, `done`, `points`, … |

Sparse: `Card` only while `owner` is set.
";
    assert!(drawing.contains(gsi), "{drawing}");
}

#[test]
fn schema_drawing_shows_recorded_examples_as_stored() {
    let card = Card {
        board_id: "b 1".to_owned(),
        position: 7,
        owner: None,
        text: "Write | tests".to_owned(),
        done: true,
        points: 3,
        color: "red".to_owned(),
        due: "friday".to_owned(),
    };
    let catalogue = TableDefinition::new()
        .entity::<Board>()
        .example(&card)
        .unwrap()
        .catalogue()
        .unwrap();
    let drawing = section(&catalogue, "## Items as stored");
    // The key as stored (space escaped as %20), no GSI1 attributes since
    // `owner` is None, values of the recorded item (`|` escaped for the
    // table cell).
    let row = "| `BOARD#b%201` | `CARD#0000000007` |  |  | `Card` | `owner`, `text = Write \\| tests`, `done = true`, `points = 3`, … |";
    assert!(drawing.contains(row), "{drawing}");
}

#[test]
fn schema_diagram_links_entities_indexes_and_access_patterns() {
    let catalogue = TableDefinition::new()
        .entity::<Board>()
        .entity::<Card>()
        .catalogue()
        .unwrap();
    let diagram = section(&catalogue, "## Diagram");
    let body = &diagram[diagram.find("```mermaid\n").expect("a mermaid block")..];
    let expected = "```mermaid
flowchart LR
  base_table[(\"table<br>PK / SK\")]
  index_GSI1[(\"GSI1<br>GSI1PK / GSI1SK\")]
  entity_Board[\"Board\"]
  entity_Card[\"Card\"]
  entity_Board -->|\"BOARD#35;#lt;board_id#gt; / META\"| base_table
  entity_Card -->|\"BOARD#35;#lt;board_id#gt; / CARD#35;#lt;position#gt;\"| base_table
  entity_Card -->|\"OWNER#35;#lt;owner#gt; / #lt;position#gt;\"| index_GSI1
  pattern_1[\"Board::key(board_id) get\"]
  base_table -.-> pattern_1
  pattern_2[\"Board::query(board_id)\"]
  base_table -.-> pattern_2
  pattern_3[\"Card::key(board_id, position) get\"]
  base_table -.-> pattern_3
  pattern_4[\"Card::query(board_id)\"]
  base_table -.-> pattern_4
  pattern_5[\"Card::query_gsi1(owner)\"]
  index_GSI1 -.-> pattern_5
```
";
    assert_eq!(body, expected);
}
