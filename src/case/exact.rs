//! Fixed-length arrays of the case file read exactly: a `[x, y, z]` key given four numbers, or
//! a facet given four vertex indices, is an error naming its length, never silently cut.
//! (serde's arrays read the first N elements of a longer TOML array and drop the rest.)

use serde::de::{Deserialize, Deserializer, Error};
use std::fmt::Debug;

/// An array of exactly `N` elements.
struct Exact<T, const N: usize>([T; N]);

impl<T: Debug, const N: usize> Debug for Exact<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl<'de, T: Deserialize<'de> + Debug, const N: usize> Deserialize<'de> for Exact<T, N> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<T>::deserialize(d)?;
        v.try_into().map(Exact).map_err(|v: Vec<T>| {
            D::Error::custom(format!(
                "{v:?} has {} components: give exactly {N}",
                v.len()
            ))
        })
    }
}

/// `[T; N]`.
pub(super) fn arr<'de, D, T, const N: usize>(d: D) -> Result<[T; N], D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Debug,
{
    Exact::<T, N>::deserialize(d).map(|e| e.0)
}

/// `Option<[T; N]>` (use with `#[serde(default)]`).
pub(super) fn opt<'de, D, T, const N: usize>(d: D) -> Result<Option<[T; N]>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Debug,
{
    Option::<Exact<T, N>>::deserialize(d).map(|o| o.map(|e| e.0))
}

/// `Option<Vec<[T; N]>>` (use with `#[serde(default)]`).
pub(super) fn opt_vec<'de, D, T, const N: usize>(d: D) -> Result<Option<Vec<[T; N]>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Debug,
{
    Option::<Vec<Exact<T, N>>>::deserialize(d)
        .map(|o| o.map(|v| v.into_iter().map(|e| e.0).collect()))
}

/// `Option<[[T; N]; N]>` (use with `#[serde(default)]`): a matrix, rows and columns exact.
pub(super) fn opt_matrix<'de, D, T, const N: usize>(d: D) -> Result<Option<[[T; N]; N]>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Debug,
{
    Option::<Exact<Exact<T, N>, N>>::deserialize(d).map(|o| o.map(|m| m.0.map(|r| r.0)))
}
