//! The bounded fault soak of CI: fixed seeds, 16 tasks each, with the
//! SDK's standard retries and without (`stamp_examples::soak`; the sweep
//! is `cargo xtask soak`). Each run compares the final table with the
//! model of what Stamp acknowledged; a failure names its seed.

use stamp_examples::soak::{self, SoakOptions};

static EMBEDDED: std::sync::LazyLock<stamp::local::LocalDynamoDb> =
    std::sync::LazyLock::new(|| {
        stamp::local::LocalDynamoDb::start_in_background()
            .unwrap_or_else(|error| panic!("{error}; or set STAMP_DYNAMODB_ENDPOINT"))
    });

/// `$STAMP_DYNAMODB_ENDPOINT` when set, else the embedded server.
fn endpoint() -> String {
    match std::env::var("STAMP_DYNAMODB_ENDPOINT") {
        Ok(url) if !url.is_empty() => url,
        _ => EMBEDDED.endpoint().to_owned(),
    }
}

const TASKS: usize = 16;
const OPERATIONS_PER_TASK: usize = 25;

async fn soak(seed: u64, sdk_retries: bool) -> soak::SoakReport {
    let options = SoakOptions {
        seed,
        tasks: TASKS,
        operations_per_task: OPERATIONS_PER_TASK,
        fault_rate: 0.15,
        sdk_retries,
        ..SoakOptions::default()
    };
    let report = soak::run(&endpoint(), &options)
        .await
        .unwrap_or_else(|failure| panic!("{failure}"));
    println!("{report}");
    assert_eq!(report.operations, (TASKS * OPERATIONS_PER_TASK) as u64);
    assert!(
        report.faults.total() > 0,
        "seed {seed}: no fault was injected in {} requests",
        report.faults.requests
    );
    report
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_soak_holds_with_the_sdks_retries() {
    let mut resent_updates = 0;
    let mut set_only_updates = 0;
    for seed in [1, 2, 3] {
        let report = soak(seed, true).await;
        resent_updates += report
            .faults
            .resent_after_applied
            .get("UpdateItem")
            .copied()
            .unwrap_or_default();
        set_only_updates += report
            .by_operation
            .get("versioned update of a cart (set only)")
            .map_or(0, |counts| counts.acknowledged);
    }
    // A versioned update that only sets fields is idempotent, so the SDK
    // sends it again after an applied attempt lost its answer (an `ADD` or
    // an append never is): the path where the stored item shows the
    // update's own write ran, and the invariants held.
    assert!(
        resent_updates > 0,
        "no UpdateItem was sent again after a lost answer"
    );
    assert!(set_only_updates > 0, "no set-only update was acknowledged");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_soak_holds_without_retries() {
    for seed in [4, 5] {
        soak(seed, false).await;
    }
}

/// The model comparison can fail: a server that answers "throttled" after
/// it applied the write (which DynamoDB never does: a throttled request was
/// not applied) makes Stamp report applied writes as refused, and the soak
/// finds them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_soak_finds_writes_reported_refused_that_were_applied() {
    let options = SoakOptions {
        seed: 7,
        tasks: TASKS,
        operations_per_task: OPERATIONS_PER_TASK,
        fault_rate: 0.3,
        sdk_retries: false,
        dishonest_throttling: true,
    };
    let failure = soak::run(&endpoint(), &options)
        .await
        .expect_err("a lying server breaks the invariants");
    println!("{failure}");
    assert_eq!((failure.seed, &failure.could_not_run), (7, &None));
    // Which writes the lie hits depends on how the tasks interleave, so
    // the soak may find it as an item stored that was reported not
    // written, a re-key reported refused that was applied, or a change
    // applied twice because its first write was reported refused: each
    // says an applied write was reported as not applied.
    const APPLIED_BUT_REPORTED_REFUSED: [&str; 3] = [
        "is stored, but was reported not",
        "failed with an error that says nothing was changed",
        "holds changes twice",
    ];
    assert!(
        failure.violations.iter().any(|violation| {
            APPLIED_BUT_REPORTED_REFUSED
                .iter()
                .any(|kind| violation.contains(kind))
        }),
        "{failure}"
    );
    assert!(
        failure
            .to_string()
            .starts_with("the soak with seed 7 broke "),
        "{failure}"
    );
}
