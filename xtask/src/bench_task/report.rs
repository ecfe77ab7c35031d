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
    /// Whether the row is one of the goals (the same work as its baselines).
    pub(super) goal: bool,
}

/// The measured rows, estimates looked up.
pub(super) struct Table<'a> {
    pub(super) criterion: &'a Path,
    pub(super) out: String,
    /// Every estimate shown, for the appendix.
    pub(super) shown: Vec<(String, Estimate)>,
    /// The Stamp ÷ baseline ratio of each goal row, and its bound: 1.10
    /// against the direct map (points 1 and 3), 1.05 against the SDK.
    pub(super) goals: Vec<(String, f64, f64)>,
}

impl Table<'_> {
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
                if let (Some(ratio), Some(goal)) = (ratio, goal_baseline)
                    && goal == position
                    && row.goal
                {
                    let bound = if goal == 1 { 1.10 } else { 1.05 };
                    self.goals.push((row.label.clone(), ratio, bound));
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

/// A number with thousands separators.
pub(super) fn thousands(text: &str) -> String {
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
