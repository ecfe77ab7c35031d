use super::*;

#[test]
fn the_error_wait_doubles_from_the_minimum_up_to_the_maximum() {
    let waits: Vec<Duration> = (1..=9)
        .map(|errors| error_wait(DEFAULT_MIN_ERROR_BACKOFF, DEFAULT_MAX_ERROR_BACKOFF, errors))
        .collect();
    let seconds: Vec<u64> = waits.iter().map(Duration::as_secs).collect();
    assert_eq!(seconds, [1, 2, 4, 8, 16, 32, 60, 60, 60]);
    assert_eq!(
        error_wait(Duration::from_secs(1), Duration::from_secs(60), u32::MAX),
        Duration::from_secs(60)
    );
}
