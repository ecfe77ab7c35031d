//! The soak's report: operations by kind and how they ended, and its failure.

use super::*;

/// How the operations of one kind ended.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct OperationCounts {
    /// Acknowledged: Stamp returned `Ok` (or the expected refusal).
    pub acknowledged: u64,
    /// Failed with an error that says the write was not applied.
    pub refused: u64,
    /// Failed with "may have been applied", and found applied by reading.
    pub uncertain_applied: u64,
    /// Failed with "may have been applied", and found not applied.
    pub uncertain_not_applied: u64,
    /// Version conflicts met (and retried) on the way.
    pub conflicts: u64,
}

/// What a soak run did and found.
#[derive(Debug, Clone)]
pub struct SoakReport {
    /// The options it ran with.
    pub options: SoakOptions,
    /// From the first operation to the last (setup and checks excluded).
    pub elapsed: Duration,
    /// Operations done by all tasks.
    pub operations: u64,
    /// The faults injected.
    pub faults: FaultCounts,
    /// How the operations ended, by kind (its name).
    pub by_operation: BTreeMap<&'static str, OperationCounts>,
    /// The duration of each operation, resolution included, sorted.
    pub latencies: Vec<Duration>,
    /// The invariants checked at the end (one per item or model entry).
    pub invariants_checked: u64,
}

impl SoakReport {
    /// Operations per second of the run.
    pub fn operations_per_second(&self) -> f64 {
        self.operations as f64 / self.elapsed.as_secs_f64()
    }

    /// The latency at `quantile` (0 to 1) of the operations.
    pub fn latency(&self, quantile: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let index = ((self.latencies.len() - 1) as f64 * quantile).round() as usize;
        self.latencies[index]
    }
}

impl fmt::Display for SoakReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let options = &self.options;
        writeln!(
            f,
            "seed {}: {} tasks, {} operations in {:.2} s ({:.0} operations/s), p50 {:.1} ms, p99 {:.1} ms; SDK retries {}",
            options.seed,
            options.tasks,
            self.operations,
            self.elapsed.as_secs_f64(),
            self.operations_per_second(),
            self.latency(0.5).as_secs_f64() * 1e3,
            self.latency(0.99).as_secs_f64() * 1e3,
            if options.sdk_retries { "on" } else { "off" },
        )?;
        writeln!(
            f,
            "  faults: {} of {} requests ({:.0} %)",
            self.faults.total(),
            self.faults.requests,
            options.fault_rate * 100.0
        )?;
        for (fault, count) in &self.faults.by_kind {
            writeln!(f, "    {count:>5}  {fault}")?;
        }
        for (operation, count) in &self.faults.resent_after_applied {
            writeln!(
                f,
                "    {count:>5}  {operation} sent again by the SDK after an applied attempt lost its answer"
            )?;
        }
        writeln!(
            f,
            "  operations (acknowledged / refused / uncertain, applied / uncertain, not applied / conflicts retried):"
        )?;
        for (name, counts) in &self.by_operation {
            writeln!(
                f,
                "    {:>5} {:>5} {:>5} {:>5} {:>5}  {name}",
                counts.acknowledged,
                counts.refused,
                counts.uncertain_applied,
                counts.uncertain_not_applied,
                counts.conflicts
            )?;
        }
        write!(
            f,
            "  invariants checked: {}, all held",
            self.invariants_checked
        )
    }
}

/// A soak run that found a broken invariant, or could not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoakFailure {
    /// The seed that reproduces it.
    pub seed: u64,
    /// What kept it from running (the table or its first items could not
    /// be written), with no invariant checked.
    pub could_not_run: Option<String>,
    /// Each broken invariant, for people.
    pub violations: Vec<String>,
}

impl fmt::Display for SoakFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(reason) = &self.could_not_run {
            return write!(
                f,
                "the soak with seed {} could not run: {reason}",
                self.seed
            );
        }
        write!(
            f,
            "the soak with seed {} broke {} invariants (rerun: cargo xtask soak --seed {}):",
            self.seed,
            self.violations.len(),
            self.seed
        )?;
        for violation in self.violations.iter().take(20) {
            write!(f, "\n  - {violation}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SoakFailure {}
