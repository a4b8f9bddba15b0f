//! `[[contact]]`: the contact model of each pair of materials (the first rule that matches).

use super::materials::material_index;
use super::reader::{positive, Reader};
use super::{CaseError, CaseFile, ContactSection};
use crate::body::Material;
use crate::law::{
    Cohesion, ContactModel, FrictionLimit, Hertz, HertzHistory, HertzPair, HookeHistory,
    Hysteretic, Linear, LinearBond, LinearDashpot, Rolling,
};
use crate::math::Real;

/// The contact models of each pair of material indices `a <= b` that a rule matches, and
/// their rolling resistances (aligned).
pub(super) type ContactLaws = (
    Vec<(usize, usize, ContactModel)>,
    Vec<(Option<Rolling>, Option<Cohesion>)>,
);

/// The contact model of each pair of material indices `a <= b` that a rule matches, with its
/// rolling resistance.
pub(super) fn parse_contacts(
    r: &Reader,
    file: &CaseFile,
    materials: &[Material],
) -> Result<ContactLaws, CaseError> {
    let f = r.f;
    let material_index = |key: &str, name: &str| material_index(r, materials, key, name);
    let mut rules = Vec::new();
    for (k, c) in file.contact.iter().enumerate() {
        let key = |s: &str| format!("contact[{}].{s}", k + 1);
        for m in &c.between {
            if m != "*" {
                material_index(&key("between"), m)?;
            }
        }
        contact_model(f, k + 1, c, None)?;
        let extra = (rolling(r, k + 1, c)?, cohesion(r, k + 1, c)?);
        rules.push((c.between.clone(), k + 1, c, extra));
    }
    let mut contact_models = Vec::new();
    let mut rolls = Vec::new();
    for a in 0..materials.len() {
        for b in a..materials.len() {
            let (na, nb) = (&materials[a].name, &materials[b].name);
            let hit = |x: &String, y: &String| (x == "*" || x == na) && (y == "*" || y == nb);
            if let Some((_, k, c, extra)) = rules
                .iter()
                .find(|(bt, ..)| hit(&bt[0], &bt[1]) || hit(&bt[1], &bt[0]))
            {
                let law = contact_model(f, *k, c, Some((&materials[a], &materials[b])))?;
                // (JKR takes the pair's Hertz modulus)
                let cohesion = match (&law, extra.1) {
                    (ContactModel::Hertz(m), Some(x)) => Some(x.with_modulus(m.pair.e_star)),
                    (_, x) => x,
                };
                rolls.push((extra.0, cohesion));
                contact_models.push((a, b, law));
            }
        }
    }
    Ok((contact_models, rolls))
}

/// Rolling resistance and cohesion act through the local contact frame, in 3D: refused (at
/// `key`) for the frame-free history models and in 2D.
fn frame_model_in_3d(
    r: &Reader,
    c: &ContactSection,
    key: &str,
    what: &str,
) -> Result<(), CaseError> {
    if matches!(c.model.as_str(), "hertz-history" | "hooke-history") {
        return Err(CaseError::new(
            r.f,
            key,
            format!(
                "model \"{}\" works without the local contact frame that {what} is built on: use \
                 linear, linear-dashpot, hysteretic, hertz or linearbond",
                c.model
            ),
        ));
    }
    if r.dim == 2 {
        return Err(CaseError::new(
            r.f,
            key,
            format!("{what} is 3D only (not built for 2D disks yet)"),
        ));
    }
    Ok(())
}

/// An error made by `why` when a key was `given` that its kind does not take.
fn not_for(given: bool, why: impl FnOnce() -> CaseError) -> Result<(), CaseError> {
    if given {
        Err(why())
    } else {
        Ok(())
    }
}

/// The cohesion of rule `k` (`cohesion = { ... }`), checked: a frame-based model, 3D, the key
/// of its kind, a positive finite value.
fn cohesion(r: &Reader, k: usize, c: &ContactSection) -> Result<Option<Cohesion>, CaseError> {
    let Some(s) = &c.cohesion else {
        return Ok(None);
    };
    let key = |x: &str| format!("contact[{k}].cohesion.{x}");
    let err = |x: &str, why: String| CaseError::new(r.f, key(x), why);
    frame_model_in_3d(r, c, &key("kind"), "cohesion")?;
    let value = |x: &str, v: Option<f64>, unit: &str| -> Result<f64, CaseError> {
        match v {
            Some(v) if v.is_finite() && v > 0.0 => Ok(v),
            Some(v) => Err(err(x, format!("{v}: must be a positive finite number"))),
            None => Err(err(
                x,
                format!("cohesion \"{}\" needs {x} ({unit})", s.kind),
            )),
        }
    };
    let refuse = |x: &str, given: bool| {
        not_for(given, || {
            err(x, format!("does not apply to cohesion kind \"{}\"", s.kind))
        })
    };
    Ok(Some(match s.kind.as_str() {
        "dmt" => {
            refuse("energy_density", s.energy_density.is_some())?;
            Cohesion::Dmt {
                surface_energy: value("surface_energy", s.surface_energy, "J/m^2")?,
            }
        }
        "sjkr" => {
            refuse("surface_energy", s.surface_energy.is_some())?;
            Cohesion::Sjkr {
                energy_density: value("energy_density", s.energy_density, "J/m^3")?,
            }
        }
        "jkr" => {
            refuse("energy_density", s.energy_density.is_some())?;
            if c.model != "hertz" {
                return Err(err(
                    "kind",
                    format!(
                        "JKR replaces the Hertz model's normal force: it needs model = \"hertz\" \
                         (this rule's model is \"{}\")",
                        c.model
                    ),
                ));
            }
            Cohesion::Jkr {
                surface_energy: value("surface_energy", s.surface_energy, "J/m^2")?,
                // (the pair's modulus, set with its Hertz model: Cohesion::with_modulus)
                e_star: Real::NAN,
            }
        }
        other => {
            return Err(err(
                "kind",
                format!("unknown cohesion \"{other}\" (expected dmt, sjkr or jkr)"),
            ))
        }
    }))
}

/// The rolling resistance of rule `k` (`rolling = { ... }`), checked: a frame-based model, 3D,
/// a non-negative coefficient, positive stiffnesses, a damping ratio in [0, 1).
fn rolling(r: &Reader, k: usize, c: &ContactSection) -> Result<Option<Rolling>, CaseError> {
    let Some(s) = &c.rolling else {
        if c.twisting.is_some() {
            return Err(CaseError::new(
                r.f,
                format!("contact[{k}].twisting"),
                "twisting resistance takes its kind (cdt, epsd or pfc) from `rolling`: give \
                 rolling too (its coefficient may be 0)"
                    .to_string(),
            ));
        }
        return Ok(None);
    };
    let key = |x: &str| format!("contact[{k}].rolling.{x}");
    let err = |x: &str, why: String| CaseError::new(r.f, key(x), why);
    frame_model_in_3d(r, c, &key("kind"), "rolling resistance")?;
    let twisting = match &c.twisting {
        Some(t) => lever(
            r,
            format!("contact[{k}].twisting.coefficient"),
            t.coefficient,
        )?,
        None => 0.0,
    };
    lever(r, key("coefficient"), s.coefficient)?;
    let refuse = |x: &str, given: bool| {
        not_for(given, || {
            err(x, format!("does not apply to rolling kind \"{}\"", s.kind))
        })
    };
    let positive = |x: &str, v: f64| -> Result<f64, CaseError> {
        if v.is_finite() && v > 0.0 {
            Ok(v)
        } else {
            Err(err(x, format!("{v}: must be a positive finite number")))
        }
    };
    let coefficient = s.coefficient;
    Ok(Some(match s.kind.as_str() {
        "cdt" => {
            refuse("stiffness_factor", s.stiffness_factor.is_some())?;
            refuse("damping", s.damping.is_some())?;
            refuse("kr", s.kr.is_some())?;
            Rolling::Cdt {
                coefficient,
                twisting,
            }
        }
        "epsd" => {
            refuse("kr", s.kr.is_some())?;
            let damping = s.damping.unwrap_or(0.3);
            if !(damping.is_finite() && (0.0..1.0).contains(&damping)) {
                return Err(err(
                    "damping",
                    format!("{damping}: a ratio of the critical damping in [0, 1)"),
                ));
            }
            Rolling::Epsd {
                coefficient,
                stiffness_factor: positive("stiffness_factor", s.stiffness_factor.unwrap_or(2.25))?,
                damping,
                twisting,
            }
        }
        "pfc" => {
            refuse("stiffness_factor", s.stiffness_factor.is_some())?;
            refuse("damping", s.damping.is_some())?;
            let kr = s.kr.map(|v| positive("kr", v)).transpose()?;
            let shear_springs = ["linear", "linear-dashpot", "hysteretic", "linearbond"];
            if kr.is_none()
                && shear_springs.contains(&c.model.as_str())
                && c.ks.unwrap_or(0.0) == 0.0
            {
                return Err(err(
                    "kr",
                    "not given, and its default k_s R*² is 0 (this rule's ks is 0): a \
                     rolling spring of no stiffness; give kr (N m/rad) or ks"
                        .into(),
                ));
            }
            Rolling::Pfc {
                coefficient,
                kr,
                twisting,
            }
        }
        other => {
            return Err(err(
                "kind",
                format!("unknown rolling resistance \"{other}\" (expected cdt, epsd or pfc)"),
            ))
        }
    }))
}

/// A rolling or twisting coefficient: in [0, 1] (the couple's lever arm μ R* is at most the
/// pieces' radius: no contact patch holds a couple beyond it; 1e200 overflowed the run).
fn lever(r: &Reader, key: String, v: Real) -> Result<Real, CaseError> {
    if v.is_finite() && (0.0..=1.0).contains(&v) {
        Ok(v)
    } else {
        Err(CaseError::new(
            r.f,
            key,
            format!(
                "{}: must be a number in [0, 1] (the couple's lever arm, coefficient × R*, \
                 cannot exceed the radius of the pieces)",
                crate::math::num(v)
            ),
        ))
    }
}

/// JKR's neck holds a contact across a gap: the broad phase must keep the pair (it keeps pairs
/// within the margin, [`crate::detect`]), so the longest neck, the largest ball's on a wall,
/// must be shorter than `[run] margin`.
pub(super) fn refuse_short_margin(
    r: &Reader,
    cohesion: &[Option<Cohesion>],
    largest_radius: Real,
    margin: Real,
) -> Result<(), CaseError> {
    use crate::law::Pieces;
    for c in cohesion.iter().flatten() {
        let neck = -c.reach(Pieces::Wall(largest_radius));
        if neck >= margin {
            return Err(r.err(
                "run.margin",
                format!(
                    "{margin:e} m: a JKR neck (cohesion jkr, gamma and E* of its pair) of a ball \
                     of radius {largest_radius:e} m stretches to {neck:.4e} m before it breaks; \
                     the margin must be larger so that the pair stays a candidate"
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses Hertz's laws in the 2D mode.
pub(super) fn refuse_hertz_in_2d(
    r: &Reader,
    contact_models: &[(usize, usize, ContactModel)],
) -> Result<(), CaseError> {
    if r.dim == 2 {
        for (_, _, law) in contact_models {
            if matches!(law, ContactModel::Hertz(_) | ContactModel::HertzHistory(_)) {
                return Err(r.err("contact", format!("model \"{}\": Hertz's law is for spheres; a 2D disk (a cylinder of unit thickness) has no such law here: use a linear-family model", law.name())));
            }
        }
    }
    Ok(())
}

/// The contact model of rule `k` for a pair of materials (`None`: validate the keys only).
fn contact_model(
    f: &str,
    k: usize,
    c: &ContactSection,
    pair: Option<(&Material, &Material)>,
) -> Result<ContactModel, CaseError> {
    let rule = Rule { f, k, c };
    rule.refuse_other_keys()?;
    let soft = c.softening.unwrap_or(1.0);
    positive(f, &rule.key("softening"), soft)?;
    let friction = rule.nonneg("friction", c.friction)?;
    let limit = rule.friction_limit()?;
    Ok(match c.model.as_str() {
        "linear" => ContactModel::Linear(Linear {
            kn: rule.needed("kn", c.kn, "N/m")? * soft,
            ks: rule.nonneg("ks", c.ks)? * soft,
            kn_rot: rule.nonneg("kn_rot", c.kn_rot)? * soft,
            ks_rot: rule.nonneg("ks_rot", c.ks_rot)? * soft,
            friction,
            damp_n: rule.ratio("damp_n", c.damp_n)?,
            damp_s: rule.ratio("damp_s", c.damp_s)?,
            limit,
        }),
        "linear-dashpot" => ContactModel::LinearDashpot(
            LinearDashpot::new(
                rule.needed("kn", c.kn, "N/m")? * soft,
                rule.nonneg("ks", c.ks)? * soft,
                friction,
                rule.restitution()?,
                c.clamp.unwrap_or(false),
                rule.ratio("damp_s", c.damp_s)?,
            )
            .with_limit(limit),
        ),
        "hysteretic" => rule.hysteretic(soft, friction)?,
        "hooke-history" => ContactModel::HookeHistory(HookeHistory {
            kn: rule.needed("kn", c.kn, "N/m")? * soft,
            kt: rule.nonneg("ks", c.ks)? * soft,
            gamma_n: rule.nonneg("gamma_n", c.gamma_n)?,
            gamma_t: rule.nonneg("gamma_t", c.gamma_t)?,
            friction,
            limit,
        }),
        "hertz" | "hertz-history" => rule.hertz(pair, soft, (friction, limit))?,
        _ => {
            let bond_gap = rule.nonneg("bond_gap", c.bond_gap)?;
            ContactModel::LinearBond(LinearBond {
                kn: rule.needed("kn", c.kn, "N/m")? * soft,
                ks: rule.nonneg("ks", c.ks)? * soft,
                friction,
                tensile: rule.nonneg("tensile", c.tensile)?,
                shear_strength: rule.nonneg("shear_strength", c.shear_strength)?,
                bond_gap,
            })
        }
    })
}

/// Rule `k` (`[[contact]]` number `k` from 1) of file `f`, and the checks of its keys.
struct Rule<'a> {
    f: &'a str,
    k: usize,
    c: &'a ContactSection,
}

impl Rule<'_> {
    /// The full name of key `s` of the rule.
    fn key(&self, s: &str) -> String {
        format!("contact[{}].{s}", self.k)
    }

    /// An error at key `s` of the rule.
    fn err(&self, s: &str, r: String) -> CaseError {
        CaseError::new(self.f, self.key(s), r)
    }

    /// Refuses an unknown model, and a key its model does not take.
    fn refuse_other_keys(&self) -> Result<(), CaseError> {
        let c = self.c;
        let allowed: &[&str] = match c.model.as_str() {
            "linear" => &["kn", "ks", "kn_rot", "ks_rot", "friction", "damp_n", "damp_s", "friction_limit"],
            "linear-dashpot" => &["kn", "ks", "friction", "restitution", "clamp", "damp_s", "friction_limit"],
            "hysteretic" => &["kn", "ks", "k_unload", "friction"],
            "hertz" => &["friction", "restitution", "clamp", "friction_limit"],
            "linearbond" => &["kn", "ks", "friction", "tensile", "shear_strength", "bond_gap"],
            "hertz-history" => &["friction", "restitution", "friction_limit"],
            "hooke-history" => &["kn", "ks", "gamma_n", "gamma_t", "friction", "friction_limit"],
            m => {
                return Err(self.err(
                    "model",
                    format!("unknown model \"{m}\" (expected linear, linear-dashpot, hysteretic, hertz, linearbond, hertz-history, hooke-history)"),
                ))
            }
        };
        let given = [
            ("kn", c.kn.is_some()),
            ("ks", c.ks.is_some()),
            ("kn_rot", c.kn_rot.is_some()),
            ("ks_rot", c.ks_rot.is_some()),
            ("friction", c.friction.is_some()),
            ("damp_n", c.damp_n.is_some()),
            ("damp_s", c.damp_s.is_some()),
            ("restitution", c.restitution.is_some()),
            ("k_unload", c.k_unload.is_some()),
            ("clamp", c.clamp.is_some()),
            ("tensile", c.tensile.is_some()),
            ("shear_strength", c.shear_strength.is_some()),
            ("bond_gap", c.bond_gap.is_some()),
            ("gamma_n", c.gamma_n.is_some()),
            ("gamma_t", c.gamma_t.is_some()),
            ("friction_limit", c.friction_limit.is_some()),
        ];
        for (name, is_given) in given {
            if is_given && !allowed.contains(&name) {
                return Err(self.err(name, format!("does not apply to model \"{}\"", c.model)));
            }
        }
        Ok(())
    }

    /// A non-negative finite number (0 when not given).
    fn nonneg(&self, name: &str, v: Option<Real>) -> Result<Real, CaseError> {
        let v = v.unwrap_or(0.0);
        if v.is_finite() && v >= 0.0 {
            Ok(v)
        } else {
            Err(self.err(name, format!("{v}: must be a non-negative finite number")))
        }
    }

    /// A critical-damping ratio in [0, 1) (0 when not given).
    fn ratio(&self, name: &str, v: Option<Real>) -> Result<Real, CaseError> {
        let v = self.nonneg(name, v)?;
        if v < 1.0 {
            Ok(v)
        } else {
            Err(self.err(
                name,
                format!("{v}: a critical-damping ratio must be below 1"),
            ))
        }
    }

    /// A positive finite number the model needs, in `unit`.
    fn needed(&self, name: &str, v: Option<Real>, unit: &str) -> Result<Real, CaseError> {
        let v = v.ok_or_else(|| {
            self.err(
                name,
                format!("model \"{}\" needs {name} ({unit})", self.c.model),
            )
        })?;
        positive(self.f, &self.key(name), v)
    }

    /// The restitution, in (0, 1] (1 when not given).
    fn restitution(&self) -> Result<Real, CaseError> {
        let e = self.c.restitution.unwrap_or(1.0);
        if e > 0.0 && e <= 1.0 {
            Ok(e)
        } else {
            Err(self.err("restitution", format!("{e}: must lie in (0, 1]")))
        }
    }

    /// `friction_limit`: "total" (the default) or "spring".
    fn friction_limit(&self) -> Result<FrictionLimit, CaseError> {
        Ok(match self.c.friction_limit.as_deref() {
            None | Some("total") => FrictionLimit::Total,
            Some("spring") => FrictionLimit::Spring,
            Some(other) => {
                return Err(self.err(
                    "friction_limit",
                    format!("\"{other}\": expected \"total\" (spring plus dashpot within friction |F_n|, the default) or \"spring\" (the spring alone, as PFC's linear model and LIGGGHTS's tangential history)"),
                ))
            }
        })
    }

    /// The hysteretic model: `k_unload` at least `kn`.
    fn hysteretic(&self, soft: Real, friction: Real) -> Result<ContactModel, CaseError> {
        let c = self.c;
        let kn = self.needed("kn", c.kn, "N/m")?;
        let k_unload = self.needed("k_unload", c.k_unload, "N/m")?;
        if k_unload < kn {
            return Err(self.err(
                "k_unload",
                format!(
                    "{k_unload}: must be at least kn = {kn} (restitution sqrt(kn/k_unload) <= 1)"
                ),
            ));
        }
        Ok(ContactModel::Hysteretic(Hysteretic {
            kn: kn * soft,
            k_unload: k_unload * soft,
            ks: self.nonneg("ks", c.ks)? * soft,
            friction,
        }))
    }

    /// `hertz` or `hertz-history` for the pair of materials (without one, placeholder moduli:
    /// the keys alone are checked): both need Young's modulus, not both rigid.
    fn hertz(
        &self,
        pair: Option<(&Material, &Material)>,
        soft: Real,
        (friction, limit): (Real, FrictionLimit),
    ) -> Result<ContactModel, CaseError> {
        let (c, k) = (self.c, self.k);
        let e = self.restitution()?;
        let clamp = c.clamp.unwrap_or(true);
        let make = |p: HertzPair, e: Real| {
            if c.model == "hertz" {
                ContactModel::Hertz(Hertz::new(p, friction, e, clamp).with_limit(limit))
            } else {
                ContactModel::HertzHistory(HertzHistory::new(p, friction, e).with_limit(limit))
            }
        };
        let Some((a, b)) = pair else {
            return Ok(make(
                HertzPair {
                    e_star: 1.0,
                    g_star: 1.0,
                },
                1.0,
            ));
        };
        for m in [a, b] {
            if m.young.is_nan() || m.young <= 0.0 {
                return Err(CaseError::new(
                    self.f,
                    format!("material.{}.young", m.name),
                    format!(
                        "model \"{}\" (contact[{k}]) needs Young's modulus (Pa) of material \"{}\"",
                        c.model, m.name
                    ),
                ));
            }
        }
        if a.young.is_infinite() && b.young.is_infinite() {
            return Err(self.err(
                "between",
                format!(
                    "materials \"{}\" and \"{}\" are both rigid (young = inf): no Hertz contact",
                    a.name, b.name
                ),
            ));
        }
        let mut p = HertzPair::of(a.young, a.poisson, b.young, b.poisson);
        p.e_star *= soft;
        p.g_star *= soft;
        Ok(make(p, e))
    }
}
