//! The reference service's vectors, computed from its own data by feature
//! hashing (the "hashing trick"): nothing is downloaded, no model is run,
//! and the same words always give the same vector.
//!
//! A text is split into words (runs of letters and digits, lowercased);
//! each word is hashed with FNV-1a 64 (a stable hash, the `fnv` crate) into
//! one of [`DIMENSIONS`] buckets, which counts it; the counts are then
//! scaled to length 1. Two texts with the same words (in any order) get the
//! same vector, at cosine distance 0; texts that share no word are at
//! distance 1, unless two of their words fall into one bucket.
//!
//! See Weinberger et al., "Feature Hashing for Large Scale Multitask
//! Learning" (ICML 2009), <https://arxiv.org/abs/0902.2206>.

use std::hash::Hasher;

use crate::Product;

/// The number of elements of every vector: the `dimensions` of the
/// service's vector indexes.
pub const DIMENSIONS: usize = 64;

/// The words of `text`: its runs of letters and digits, lowercased.
pub fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
}

/// The bucket of `word`, 0 to [`DIMENSIONS`] − 1: its FNV-1a 64 hash
/// modulo [`DIMENSIONS`].
pub fn bucket(word: &str) -> usize {
    let mut hasher = fnv::FnvHasher::default();
    hasher.write(word.as_bytes());
    (hasher.finish() % DIMENSIONS as u64) as usize
}

/// The feature-hashed vector of the words of `texts`: each word counted in
/// its [`bucket`], the counts scaled to length 1. Without any word, every
/// element is 0 (a vector no cosine index can compare; the service's
/// texts always have words).
pub fn feature_hash<'a>(texts: impl IntoIterator<Item = &'a str>) -> Vec<f32> {
    let mut counts = vec![0f32; DIMENSIONS];
    for text in texts {
        for word in words(text) {
            counts[bucket(&word)] += 1.0;
        }
    }
    let length = counts.iter().map(|count| count * count).sum::<f32>().sqrt();
    if length > 0.0 {
        counts.iter_mut().for_each(|count| *count /= length);
    }
    counts
}

/// A product's vector: the words of its name and its category.
pub fn product(name: &str, category: &str) -> Vec<f32> {
    feature_hash([name, category])
}

/// An order's vector: the words of the names and categories of the
/// products of its lines (a product on two lines counts twice).
pub fn order<'a>(products: impl IntoIterator<Item = &'a Product>) -> Vec<f32> {
    feature_hash(
        products
            .into_iter()
            .flat_map(|product| [product.name.as_str(), product.category.as_str()]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_words_give_the_same_unit_vector() {
        let a = feature_hash(["Oak lamp", "lighting"]);
        let b = feature_hash(["lighting", "LAMP oak"]);
        assert_eq!(a, b);
        let length: f32 = a.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((length - 1.0).abs() < 1e-6, "{length}");
        assert_eq!(a.len(), DIMENSIONS);
    }

    #[test]
    fn words_are_counted_in_their_buckets() {
        // FNV-1a 64 of "oak" is 0x1a3b_9819_21f5_97b2, 50 modulo 64 (by
        // FNV's definition: offset basis 0xcbf29ce484222325, prime
        // 0x100000001b3); of "lamp", 0x046a_daad_9068_fe7b, 59.
        assert_eq!((bucket("oak"), bucket("lamp")), (50, 59));
        let vector = feature_hash(["oak"]);
        let expected: Vec<f32> = (0..DIMENSIONS)
            .map(|position| if position == 50 { 1.0 } else { 0.0 })
            .collect();
        assert_eq!(vector, expected);
        assert_eq!(feature_hash([""]), vec![0.0; DIMENSIONS]);
    }
}
