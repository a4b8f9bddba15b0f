//! The registry of check kinds: the name a `[[check]]` table gives in `kind = "..."`, and the
//! function that reads the rest of the table. Adding a kind is adding its file and one line
//! here ([`super::CheckKind`] says how).

use super::active_count::ActiveCount;
use super::analytic::Analytic;
use super::bagnold::Bagnold;
use super::beverloo::Beverloo;
use super::collision::FirstCollision;
use super::convergence::Convergence;
use super::critical_timestep::CriticalTimestep;
use super::cycles_ratio::CyclesRatio;
use super::drift::Drift;
use super::drops::Drops;
use super::energy_balance::EnergyBalance;
use super::final_value::FinalValue;
use super::golden;
use super::harmonic::Harmonic;
use super::identity::Identity;
use super::janssen::Janssen;
use super::jkr::Jkr;
use super::kind::{CheckKind, CheckSpec};
use super::max_turn::MaxTurn;
use super::radius_distribution::RadiusDistribution;
use super::rheology::MuOfI;
use super::same_series::SameSeries;
use std::sync::Arc;

/// Reads the keys of a table of the kind it is registered under.
type Reader = fn(&str, toml::Value) -> Result<CheckSpec, String>;

/// Every kind, by the name case files give it.
const KINDS: &[(&str, Reader)] = &[
    ("harmonic", kind::<Harmonic>),
    ("restitution", kind::<FirstCollision>),
    ("contact_duration", kind::<FirstCollision>),
    ("critical_timestep", kind::<CriticalTimestep>),
    ("final_value", kind::<FinalValue>),
    ("same_series", kind::<SameSeries>),
    ("golden", golden::parse),
    ("energy_balance", kind::<EnergyBalance>),
    ("analytic", kind::<Analytic>),
    ("convergence", kind::<Convergence>),
    ("drift", kind::<Drift>),
    ("cycles_ratio", kind::<CyclesRatio>),
    ("active_count", kind::<ActiveCount>),
    ("max_turn", kind::<MaxTurn>),
    ("drops", kind::<Drops>),
    ("radius_distribution", kind::<RadiusDistribution>),
    ("identity", kind::<Identity>),
    ("beverloo", kind::<Beverloo>),
    ("janssen", kind::<Janssen>),
    // (the message for an unknown kind names the kinds above; the words of that message are
    // kept as they were when these were all the kinds)
    ("jkr", kind::<Jkr>),
    ("max_overlap", kind::<FirstCollision>),
    ("max_force", kind::<FirstCollision>),
    ("tangential_restitution", kind::<FirstCollision>),
    ("rebound_spin", kind::<FirstCollision>),
    ("tangential_velocity", kind::<FirstCollision>),
    ("mu_of_i", kind::<MuOfI>),
    ("bagnold", kind::<Bagnold>),
];

/// How many kinds, from the first, the message for an unknown kind names.
const NAMED_IN_ERRORS: usize = 19;

/// [`CheckKind::parse`] of `K`, as a check of the case.
fn kind<K: CheckKind + 'static>(name: &str, keys: toml::Value) -> Result<CheckSpec, String> {
    Ok(CheckSpec::Kind(Arc::new(K::parse(name, keys)?)))
}

/// Reads the `k`-th `[[check]]` table (numbered from 1).
///
/// # Errors
/// An unknown kind, an unknown or missing key, a bad value: the key to name in the error
/// (`check[k] (kind)`, `check[k]` or `check[k].kind`) and the reason.
pub fn parse(k: usize, table: &toml::Table) -> Result<CheckSpec, (String, String)> {
    let kind = table.get("kind").and_then(|v| v.as_str()).unwrap_or("");
    let key = format!("check[{k}]");
    if kind.is_empty() {
        return Err((key, "missing `kind`".into()));
    }
    let Some((_, read)) = KINDS.iter().find(|(name, _)| *name == kind) else {
        let named: Vec<&str> = KINDS[..NAMED_IN_ERRORS].iter().map(|k| k.0).collect();
        return Err((
            format!("{key}.kind"),
            format!("unknown check kind \"{kind}\" ({})", named.join(", ")),
        ));
    };
    let mut rest = table.clone();
    rest.remove("kind");
    read(kind, toml::Value::Table(rest)).map_err(|reason| {
        // (a reason that starts with one of the table's keys, `tolerance: ...`: that key)
        let named = reason.split_once(": ").filter(|(k, _)| {
            let top = k.split(['.', '[']).next().unwrap_or("");
            table.contains_key(top)
        });
        match named {
            Some((k, why)) => (format!("{key}.{k} ({kind})"), why.to_string()),
            None => (format!("{key} ({kind})"), reason),
        }
    })
}
