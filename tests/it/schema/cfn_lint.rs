//! cfn-lint on the CloudFormation templates `TableDefinition` generates:
//! the committed templates of the reference model (which the golden tests
//! hold equal to `schema --format cloudformation|json`) and templates with
//! every option changed. `cargo xtask test` installs cfn-lint in its venv
//! and exports its path as `STAMP_CFN_LINT`.

use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use std::process::Command;

use stamp::{
    TableDefinition,
    schema::{IndexProjection, TableBilling},
};

/// The cfn-lint executable. Panics with the command to run when it is
/// missing: the lint never passes without cfn-lint.
fn cfn_lint() -> PathBuf {
    let path = std::env::var_os("STAMP_CFN_LINT").unwrap_or_else(|| {
        panic!(
            "STAMP_CFN_LINT is not set. This test runs cfn-lint: run it with `cargo xtask test`, \
             which installs cfn-lint into target/stamp-venv and sets the variable."
        )
    });
    let path = PathBuf::from(path);
    assert!(
        path.is_file(),
        "STAMP_CFN_LINT names {}, which does not exist; `cargo xtask test` installs it",
        path.display()
    );
    path
}

/// Runs cfn-lint on `files` and asserts that it reports nothing at all:
/// no error, no warning, no informational finding (exit status 0).
fn lint(files: &[&Path]) {
    lint_ignoring(files, &[]);
}

/// [`lint`], with cfn-lint's checks `ignored` off.
fn lint_ignoring(files: &[&Path], ignored: &[&str]) {
    let mut command = Command::new(cfn_lint());
    if !ignored.is_empty() {
        command.arg("--ignore-checks").args(ignored);
    }
    let output = command
        .arg("--")
        .args(files)
        .output()
        .expect("run cfn-lint");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("cfn-lint {files:?}: {}\n{stdout}{stderr}", output.status);
    assert!(
        output.status.success(),
        "cfn-lint found problems ({}):\n{stdout}{stderr}",
        output.status
    );
}

/// [`lint`] of templates with vector indexes: cfn-lint 1.58.0 knows
/// `VectorIndexes`, but its E3039 ("the set of attributes in
/// AttributeDefinitions and KeySchemas must match") does not count a vector
/// index's search schema, whose attributes CloudFormation requires in
/// `AttributeDefinitions`
/// (<https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-properties-dynamodb-table-searchschemaelement.html>).
/// So cfn-lint must report exactly one E3039 per file and nothing else, and
/// pass with that check off (docs/design-notes.md, "Servers").
fn lint_with_vector_indexes(files: &[&Path]) {
    let output = Command::new(cfn_lint())
        .arg("--")
        .args(files)
        .output()
        .expect("run cfn-lint");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let findings: Vec<&str> = stdout
        .lines()
        .filter(|line| line.starts_with(['E', 'W', 'I']))
        .collect();
    assert!(
        findings.iter().all(|line| line.starts_with("E3039 ")) && findings.len() == files.len(),
        "{stdout}"
    );
    lint_ignoring(files, &["E3039"]);
}

/// Writes `text` to a fresh file named `name` in the temporary directory.
fn temporary(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "stamp-cfn-{}-{}-{name}",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    std::fs::write(&path, text).expect("write the template");
    path
}

#[test]
#[ignore = "needs cfn-lint (Python): `cargo xtask test` runs it with --ignored"]
fn schema_cfn_lint_passes_the_reference_model_templates() {
    let directory = Path::new(env!("CARGO_MANIFEST_DIR")).join("stamp-examples/schema");
    let yaml = directory.join("cloudformation.yaml");
    let json = directory.join("cloudformation.json");
    // The committed files are what the definition generates (the golden
    // tests compare them with the command's output too).
    let template = stamp_examples::deployed_definition()
        .cloudformation()
        .unwrap();
    assert_eq!(std::fs::read_to_string(&yaml).unwrap(), template.to_yaml());
    assert_eq!(std::fs::read_to_string(&json).unwrap(), template.to_json());
    // The reference model has vector indexes (VECTOR1, VECTOR2).
    lint_with_vector_indexes(&[&yaml, &json]);
}

#[test]
#[ignore = "needs cfn-lint (Python): `cargo xtask test` runs it with --ignored"]
fn schema_cfn_lint_passes_templates_with_every_option_changed() {
    let capacity = NonZeroU32::new(5).unwrap();
    // Vector indexes need an on-demand table: the provisioned variant is the
    // reference model without them.
    let provisioned = crate::common::reference_without_vector_indexes()
        .billing(TableBilling::Provisioned {
            read_capacity_units: capacity,
            write_capacity_units: capacity,
        })
        .index_projection(
            "GSI1",
            IndexProjection::Include(vec!["total_cents".into(), "customer_id".into()]),
        )
        .point_in_time_recovery(false)
        .stream(aws_sdk_dynamodb::types::StreamViewType::NewAndOldImages)
        .cloudformation()
        .unwrap();
    let keys_only = crate::common::reference_without_vector_indexes()
        .index_projection("GSI1", IndexProjection::KeysOnly)
        .cloudformation()
        .unwrap();
    // (The reference Product writes a vector index.)
    let without_ttl_or_indexes = TableDefinition::new()
        .entity::<stamp_examples::Customer>()
        .cloudformation()
        .unwrap();
    let local_indexes = crate::ops::local_indexes::definition()
        .index_projection("LSI2", IndexProjection::Include(vec!["note".into()]))
        .billing(TableBilling::Provisioned {
            read_capacity_units: capacity,
            write_capacity_units: capacity,
        })
        .cloudformation()
        .unwrap();
    let files = [
        temporary("local-indexes.yaml", &local_indexes.to_yaml()),
        temporary("provisioned.yaml", &provisioned.to_yaml()),
        temporary("provisioned.json", &provisioned.to_json()),
        temporary("keys-only.yaml", &keys_only.to_yaml()),
        temporary("plain.json", &without_ttl_or_indexes.to_json()),
    ];
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    lint(&paths);
    for file in &files {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
#[ignore = "needs cfn-lint (Python): `cargo xtask test` runs it with --ignored"]
fn schema_cfn_lint_passes_a_template_with_vector_indexes() {
    let template = crate::ops::vector_search::definition()
        .cloudformation()
        .unwrap();
    let value = template.to_json_value();
    let indexes = &value["Resources"]["Table"]["Properties"]["VectorIndexes"];
    assert_eq!(indexes[0]["IndexName"], "VECTOR1");
    assert_eq!(indexes[0]["Dimensions"], 4);
    assert_eq!(indexes[0]["DistanceFunction"], "COSINE");
    assert_eq!(
        indexes[0]["SearchSchema"][0]["SearchSchemaElementType"],
        "HASH"
    );
    let files = [
        temporary("vector.yaml", &template.to_yaml()),
        temporary("vector.json", &template.to_json()),
    ];
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    lint_with_vector_indexes(&paths);
    for file in &files {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
#[ignore = "needs cfn-lint (Python): `cargo xtask test` runs it with --ignored"]
fn schema_cfn_lint_passes_a_template_with_every_table_setting() {
    let template = crate::schema::settings::every_setting()
        .cloudformation()
        .unwrap();
    let files = [
        temporary("settings.yaml", &template.to_yaml()),
        temporary("settings.json", &template.to_json()),
    ];
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    lint(&paths);
    for file in &files {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
#[ignore = "needs cfn-lint (Python): `cargo xtask test` runs it with --ignored"]
fn schema_cfn_lint_passes_global_table_templates() {
    let eventual = crate::schema::global::eventual_definition()
        .cloudformation()
        .unwrap();
    let provisioned = crate::schema::global::plain_eventual()
        .billing(TableBilling::Provisioned {
            read_capacity_units: NonZeroU32::new(5).unwrap(),
            write_capacity_units: NonZeroU32::new(7).unwrap(),
        })
        .cloudformation()
        .unwrap();
    let strong = crate::schema::global::strong_definition()
        .cloudformation()
        .unwrap();
    assert_eq!(
        strong.to_json_value()["Resources"]["Table"]["Type"],
        "AWS::DynamoDB::GlobalTable"
    );
    let files = [
        temporary("global-eventual.yaml", &eventual.to_yaml()),
        temporary("global-eventual.json", &eventual.to_json()),
        temporary("global-provisioned.yaml", &provisioned.to_yaml()),
        temporary("global-strong.yaml", &strong.to_yaml()),
        temporary("global-strong.json", &strong.to_json()),
    ];
    let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
    lint(&paths);
    for file in &files {
        let _ = std::fs::remove_file(file);
    }
}
