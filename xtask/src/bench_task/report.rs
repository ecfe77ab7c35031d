//! Reading criterion's estimates and the bench's facts, and the table
//! helpers the report's sections write with.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;
use std::path::Path;
use std::time::Duration;

/// One criterion estimate: the time criterion reports (the slope for
/// linear sampling, else the mean) and its 95% confidence interval, in ns.
#[derive(Debug, Clone, Copy)]
pub(super) struct Estimate {
    pub(super) time: f64,
    pub(super) lower: f64,
    pub(super) upper: f64,
}

/// Reads `<criterion>/<group>/<function>/new/estimates.json`.
pub(super) fn estimate(criterion: &Path, group: &str, function: &str) -> Option<Estimate> {
    let path = criterion
        .join(group)
        .join(function)
        .join("new/estimates.json");
    parse_estimate(&fs::read_to_string(path).ok()?)
}

/// The slope (else the mean) of a criterion `estimates.json`.
pub(super) fn parse_estimate(text: &str) -> Option<Estimate> {
    let json: serde_json::Value = serde_json::from_str(text).ok()?;
    let statistic = match json.get("slope") {
        Some(slope) if slope.is_object() => slope,
        _ => json.get("mean")?,
    };
    let interval = statistic.get("confidence_interval")?;
    Some(Estimate {
        time: statistic.get("point_estimate")?.as_f64()?,
        lower: interval.get("lower_bound")?.as_f64()?,
        upper: interval.get("upper_bound")?.as_f64()?,
    })
}

/// The bench's `stamp-facts.tsv`: sizes and allocation counts.
pub(super) fn facts(criterion: &Path) -> BTreeMap<String, String> {
    fs::read_to_string(criterion.join("stamp-facts.tsv"))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once('\t'))
        .map(|(key, value)| (key.to_owned(), value.to_owned()))
        .collect()
}

/// A comparison row: a Stamp benchmark and its baselines.
pub(super) struct Row {
    pub(super) label: String,
    pub(super) group: &'static str,
    pub(super) stamp: &'static str,
    pub(super) baselines: &'static [&'static str],
    /// The goal the row is measured against, when it is one (the same work
    /// as its baselines): issue 26's goal number and the largest Stamp ÷
    /// baseline ratio it allows.
    pub(super) goal: Option<(u8, f64)>,
}

/// One line of the goals list: what this run measured against one bound.
pub(crate) struct Goal {
    /// Issue 26's goal it belongs to, 1 to 5.
    pub(crate) goal: u8,
    pub(crate) label: String,
    /// What was measured, as shown, or `None` when this run did not measure it.
    pub(crate) measured: Option<String>,
    /// The bound, as shown (`≤ 1.05`).
    pub(crate) bound: String,
    pub(crate) met: bool,
}

impl Goal {
    /// A Stamp ÷ hand-written ratio against its largest allowed value.
    pub(crate) fn ratio(goal: u8, label: impl Into<String>, ratio: f64, bound: f64) -> Self {
        Goal::ratio_with(goal, label, ratio, bound, String::new())
    }

    /// The same, with a note after the ratio (such as its spread).
    pub(crate) fn ratio_with(
        goal: u8,
        label: impl Into<String>,
        ratio: f64,
        bound: f64,
        note: String,
    ) -> Self {
        Goal {
            goal,
            label: label.into(),
            // Met or not by the ratio as shown, so the line never contradicts itself.
            met: (ratio * 100.0).round() <= (bound * 100.0).round(),
            measured: Some(format!("{ratio:.2}{note}")),
            bound: format!("≤ {bound:.2}"),
        }
    }

    /// A goal this run has no measurement of.
    pub(crate) fn missing(goal: u8, label: impl Into<String>, bound: impl Into<String>) -> Self {
        Goal {
            goal,
            label: label.into(),
            measured: None,
            bound: bound.into(),
            met: false,
        }
    }
}

/// The measured rows, estimates looked up.
pub(super) struct Table<'a> {
    pub(super) criterion: &'a Path,
    pub(super) out: String,
    /// Every estimate shown, for the appendix.
    pub(super) shown: Vec<(String, Estimate)>,
    /// The goals, as the sections measure them.
    pub(super) goals: Vec<Goal>,
    /// The ratios of rows that are not goals because criterion measured
    /// them one side after the other on the server (points 4 and 5).
    pub(super) sequential: Vec<(String, f64)>,
}

impl Table<'_> {
    /// A table of `rows`; each goal row's ratio against baseline
    /// `goal_baseline` (a position in its `baselines`) goes to the goals.
    pub(super) fn rows(&mut self, headers: &[&str], rows: &[Row], goal_baseline: Option<usize>) {
        writeln!(
            self.out,
            "| benchmark | Stamp | {} | {} |",
            headers.join(" | "),
            headers
                .iter()
                .map(|header| format!("Stamp ÷ {header}"))
                .collect::<Vec<_>>()
                .join(" | ")
        )
        .unwrap();
        writeln!(self.out, "|---|---:|{}", "---:|".repeat(headers.len() * 2)).unwrap();
        for row in rows {
            let stamp = estimate(self.criterion, row.group, row.stamp);
            let baselines: Vec<Option<Estimate>> = row
                .baselines
                .iter()
                .map(|baseline| estimate(self.criterion, row.group, baseline))
                .collect();
            let mut cells = vec![row.label.clone(), time_cell(stamp)];
            cells.extend(baselines.iter().map(|estimate| time_cell(*estimate)));
            for (position, baseline) in baselines.iter().enumerate() {
                let ratio = stamp.zip(*baseline).map(|(s, b)| s.time / b.time);
                cells.push(ratio.map_or("–".to_owned(), |ratio| format!("**{ratio:.2}**")));
                if goal_baseline != Some(position) {
                    continue;
                }
                match (row.goal, ratio) {
                    (Some((goal, bound)), Some(ratio)) => {
                        self.goals
                            .push(Goal::ratio(goal, row.label.clone(), ratio, bound))
                    }
                    (Some((goal, bound)), None) => self.goals.push(Goal::missing(
                        goal,
                        row.label.clone(),
                        format!("≤ {bound:.2}"),
                    )),
                    (None, Some(ratio)) if row.group.starts_with("server_") => {
                        self.sequential.push((row.label.clone(), ratio));
                    }
                    (None, _) => {}
                }
            }
            writeln!(self.out, "| {} |", cells.join(" | ")).unwrap();
            for (function, estimate) in std::iter::once((row.stamp, stamp))
                .chain(row.baselines.iter().copied().zip(baselines.iter().copied()))
            {
                let name = format!("{}/{function}", row.group);
                if let Some(estimate) = estimate
                    && !self.shown.iter().any(|(shown, _)| *shown == name)
                {
                    self.shown.push((name, estimate));
                }
            }
        }
        self.out.push('\n');
    }
}

pub(super) fn time_cell(estimate: Option<Estimate>) -> String {
    estimate.map_or("–".to_owned(), |estimate| format_ns(estimate.time))
}

/// A time in ns, with a unit that keeps 3 significant digits.
pub(crate) fn format_ns(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else if ns < 1e9 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

pub(super) fn format_duration(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else {
        format!(
            "{} min {:02} s",
            duration.as_secs() / 60,
            duration.as_secs() % 60
        )
    }
}

/// A fact, or `?` when the bench did not record it.
pub(super) fn fact<'a>(facts: &'a BTreeMap<String, String>, key: &str) -> &'a str {
    facts.get(key).map_or("?", String::as_str)
}

/// An allocation count, as recorded (a mean per call).
pub(super) fn allocations(facts: &BTreeMap<String, String>, key: &str) -> String {
    facts
        .get(&format!("alloc.{key}"))
        .and_then(|value| value.parse::<f64>().ok())
        .map_or("?".to_owned(), |count| {
            if count.fract() == 0.0 {
                format!("{count:.0}")
            } else {
                format!("{count:.1}")
            }
        })
}

/// A number of bytes in KiB or MiB (binary units, as allocators count).
pub(crate) fn format_bytes(bytes: f64) -> String {
    if bytes < 1024.0 {
        format!("{bytes:.0} B")
    } else if bytes < 1024.0 * 1024.0 {
        format!("{:.1} KiB", bytes / 1024.0)
    } else {
        format!("{:.2} MiB", bytes / (1024.0 * 1024.0))
    }
}

/// A number with thousands separators.
pub(crate) fn thousands(text: &str) -> String {
    let Ok(number) = text.parse::<u64>() else {
        return text.to_owned();
    };
    let digits = number.to_string();
    let mut out = String::new();
    for (position, digit) in digits.chars().enumerate() {
        if position > 0 && (digits.len() - position) % 3 == 0 {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
