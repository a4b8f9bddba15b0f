//! Named series (docs/CASES.md, section 13): what each names, resolved against a model
//! ([`Source::parse`]); `sample.rs` reads their values.

use super::column::base_series;
use crate::model::Model;

/// A quantity of one ball.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum BallQuantity {
    /// Centroid position, m.
    Pos,
    /// Velocity at the time of the positions, m/s.
    Vel,
    /// Angular velocity, rad/s.
    Spin,
    /// Resultant contact force, N.
    Force,
    /// Resultant contact moment, N m.
    Moment,
}

/// A quantity of the interaction between two balls.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum PairQuantity {
    /// Number of active contacts (0 or 1 for two balls).
    Active,
    /// Magnitude of the normal force, N.
    NormalForce,
    /// Magnitude of the shear force, N.
    ShearForce,
    /// Unit normal from the first named ball towards the second.
    Normal,
    /// Overlap r_a + r_b - distance, m (negative: gap).
    Overlap,
    /// Ball-wall only: contacts with a positive overlap from an active side, active or not
    /// (project extension; `active` minus this is what the associative logic switched off).
    Touching,
}

/// A quantity of one clump (project extension of `ball/<id>/...`, docs/CASES.md, section 13).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ClumpQuantity {
    /// A quantity that balls have too, about the centroid.
    Body(BallQuantity),
    /// Angular momentum about the centroid (world frame), kg m^2/s.
    AngMom,
    /// Centre of pebble `k` (from 0), m.
    Pebble(usize),
    /// Resultant contact force on pebble `k` (from 0), N.
    PebbleForce(usize),
}

/// A quantity of one wall.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum WallQuantity {
    /// Total contact force on the wall, N.
    Force,
    /// Total contact moment about the pivot, N m.
    Moment,
    /// Rotation vector (axis times angle) since the start, rad.
    Rotation,
    /// Position of the pivot, m.
    Pos,
    /// Velocity of the pivot in the last cycle, m/s (rigid motion; zero for a deformable wall).
    Vel,
}

/// A quantity of a measurement region (`measure/<name>/<quantity>`).
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum MeasureQuantity {
    /// Love-Weber average stress, Pa (a tensor: `.xx .yy .zz .xy .yz .xz`).
    Stress,
    /// Force-carrying contacts per body.
    Coordination,
    /// Fabric tensor (`.xx` ... `.xz`).
    Fabric,
    /// Porosity.
    Porosity,
    /// Mass of the bodies in the region, kg.
    Mass,
    /// Mass-weighted mean velocity of the bodies in the region, m/s (a vector).
    Velocity,
}

/// The columns of a tensor series.
pub const TENSOR_COLUMNS: [&str; 6] = ["xx", "yy", "zz", "xy", "yz", "xz"];

/// Where a recorded series comes from.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Source {
    /// `ball/<id>/<quantity>`.
    Ball(usize, BallQuantity),
    /// `interaction/<id>/<id>/<quantity>`.
    Pair(usize, usize, PairQuantity),
    /// `interaction/<ball id>/<wall name>/<quantity>` (ball index, wall index).
    BallWall(usize, usize, PairQuantity),
    /// `clump/<id>/<quantity>` (clump index).
    Clump(usize, ClumpQuantity),
    /// `interaction/<id>/<id>/<quantity>` when one body is a clump: every contact between
    /// their pieces (pieces of each body as index ranges).
    Group(Pieces, Pieces, PairQuantity),
    /// `interaction/<clump id>/<wall name>/<quantity>`: every contact of its pebbles with the
    /// wall (pieces, wall index).
    GroupWall(Pieces, usize, PairQuantity),
    /// `wall/<name>/<quantity>` (wall index).
    Wall(usize, WallQuantity),
    /// `contacts/active`: ball-ball and ball-facet.
    ContactsActive,
    /// `contacts/balls`: active ball-ball contacts (project extension).
    BallContacts,
    /// `contacts/walls`: active ball-facet contacts (project extension).
    WallContacts,
    /// `balls/mean_pos`: mean centre of all balls, m (project extension).
    MeanPos,
    /// `balls/momentum`: sum of inertial mass times (half-step) velocity over balls and clumps,
    /// kg m/s (project extension: constant to round-off without gravity, walls, fixed balls).
    Momentum,
    /// `domain/size`: the periodic cell's lengths, m.
    DomainSize,
    /// `domain/stress`: the cell's stress, Pa ([`super::cell_stress`]).
    DomainStress,
    /// `domain/shear_offset`: how far the image cell above is moved along the flow, m.
    ShearOffset,
    /// `domain/strain`: the accumulated shear strain.
    ShearStrain,
    /// `domain/solid_fraction`: the volume of the balls over the cell's (areas in 2D).
    SolidFraction,
    /// `balls/top`: the highest point of any ball, `z + r` (2D: `y + r`), m (project
    /// extension; the height of a heap or a bed).
    Top,
    /// `contacts/handovers`: ball-facet contact states handed to another facet since the
    /// start (full resolution mode, and imaged planes in either mode; project extension).
    Handovers,
    /// `contacts/hidden`: ball-facet contacts the line-of-sight check made inactive in the
    /// cycle (full mode; project extension).
    Hidden,
    /// `contacts/proximity`: proximity contacts acting in the cycle (full mode; project
    /// extension).
    Proximity,
    /// `fixed/force`: resultant contact force on the balls whose translations are all fixed, N
    /// (what a support made of fixed balls carries; project extension).
    FixedForce,
    /// `energy/kinetic`, J.
    Kinetic,
    /// `energy/strain`, J.
    Strain,
    /// `energy/potential` (gravitational, zero at the origin), J.
    Potential,
    /// `energy/dissipated`: dashpots, slip, hysteresis, breakage since the start, J (docs/CASES.md, section 13).
    Dissipated,
    /// `energy/work`: done on the bodies by moving walls, applied forces and the
    /// constraints of fixed degrees of freedom since the start, J (docs/CASES.md, section 13).
    Work,
    /// `energy/balance`: kinetic + strain + potential + dissipated - work, less its value
    /// at the start, J (docs/CASES.md, section 13).
    Balance,
    /// `energy/integrator`: the leapfrog integrator's own term (project extension; see
    /// [`crate::model::EnergyBooks::integrator`]), J.
    Integrator,
    /// `energy/dashpots`: the dashpots' share of `energy/dissipated` (project extension), J.
    Dashpots,
    /// `energy/models`: the contact models' share of `energy/dissipated` (slip, hysteresis,
    /// breakage, springs released with their state; project extension), J.
    Models,
    /// `energy/exchanged`: kinetic and potential energy brought by inserted balls less what
    /// removed balls took away (with their contacts' strain energy), J (project extension).
    Exchanged,
    /// `insert/<name>/count` (insertion index): balls placed so far.
    InsertCount(usize),
    /// `insert/<name>/mass`: their mass, kg.
    InsertMass(usize),
    /// `insert/<name>/pending`: balls due and not placed (kg at a mass rate; project extension).
    InsertPending(usize),
    /// `outlet/<name>/count` (outlet index): balls removed so far.
    OutletCount(usize),
    /// `outlet/<name>/mass`: their mass, kg.
    OutletMass(usize),
    /// `balls/count`: balls in the model (pebbles are not balls).
    BallsCount,
    /// `balls/mass`: their mass, kg.
    BallsMass,
    /// `measure/<name>/<quantity>` (measure index).
    Measure(usize, MeasureQuantity),
    /// `dt`, s.
    Dt,
    /// `force/unbalanced_ratio`: mean unbalanced force over the mean contact force
    /// (project extension; see [`Model::unbalanced_ratio`]).
    UnbalancedRatio,
}

/// The pieces of a body: a ball (one) or the pebbles of a clump, as indices into the balls.
pub type Pieces = (usize, usize);

impl Source {
    /// Resolves a series name against a model.
    ///
    /// # Errors
    /// An unknown name or a body that does not exist, as a sentence.
    pub fn parse(name: &str, model: &Model) -> Result<Source, String> {
        let parts: Vec<&str> = name.split('/').collect();
        let clump = |s: &str| clump_index(model, s);
        Ok(match parts.as_slice() {
            ["clump", id, rest @ ..] => parse_clump(name, model, id, rest)?,
            ["interaction", a, b, q] if clump(a).is_some() || clump(b).is_some() => {
                return parse_group(name, model, (a, b), q);
            }
            ["ball", id, q] => parse_ball(name, model, id, q)?,
            ["interaction", a, b, q] => return parse_interaction(name, model, (a, b), q),
            ["wall", w, q] => parse_wall(name, model, w, q)?,
            ["contacts", "active"] => Source::ContactsActive,
            ["contacts", "handovers"] => Source::Handovers,
            ["contacts", "balls"] => Source::BallContacts,
            ["contacts", "walls"] => Source::WallContacts,
            ["balls", "mean_pos"] => Source::MeanPos,
            ["balls", "momentum"] => Source::Momentum,
            ["domain", _] if model.balls.cell.is_none() => {
                return Err(format!(
                    "\"{name}\": the case has no periodic cell ([domain])"
                ))
            }
            ["domain", "size"] => Source::DomainSize,
            ["domain", "stress"] => Source::DomainStress,
            ["domain", "shear_offset"] => Source::ShearOffset,
            ["domain", "strain"] => Source::ShearStrain,
            ["domain", "solid_fraction"] => Source::SolidFraction,
            ["balls", "top"] => Source::Top,
            ["contacts", "hidden"] => Source::Hidden,
            ["contacts", "proximity"] => Source::Proximity,
            ["fixed", "force"] => Source::FixedForce,
            ["energy", "kinetic"] => Source::Kinetic,
            ["energy", "strain"] => Source::Strain,
            ["energy", "potential"] => Source::Potential,
            ["energy", "dissipated"] => Source::Dissipated,
            ["energy", "work"] => Source::Work,
            ["energy", "balance"] => Source::Balance,
            ["energy", "integrator"] => Source::Integrator,
            ["energy", "dashpots"] => Source::Dashpots,
            ["energy", "models"] => Source::Models,
            ["energy", "exchanged"] => Source::Exchanged,
            ["balls", "count"] => Source::BallsCount,
            ["balls", "mass"] => Source::BallsMass,
            ["insert", n, q] => parse_insert(name, model, n, q)?,
            ["outlet", n, q] => parse_outlet(name, model, n, q)?,
            ["measure", n, q] => parse_measure(name, model, n, q)?,
            ["dt"] => Source::Dt,
            ["force", "unbalanced_ratio"] => Source::UnbalancedRatio,
            _ => {
                return Err(format!(
                "unknown series \"{name}\" (the series are listed in docs/CASES.md, section 13)"
            ))
            }
        })
    }

    /// True for vector series (three columns `.x .y .z`).
    pub fn is_vector(&self) -> bool {
        matches!(
            self,
            Source::Ball(..)
                | Source::Clump(..)
                | Source::Group(_, _, PairQuantity::Normal)
                | Source::GroupWall(_, _, PairQuantity::Normal)
                | Source::Pair(_, _, PairQuantity::Normal)
                | Source::BallWall(_, _, PairQuantity::Normal)
                | Source::Wall(..)
                | Source::FixedForce
                | Source::MeanPos
                | Source::Measure(_, MeasureQuantity::Velocity)
                | Source::Momentum
                | Source::DomainSize
        )
    }

    /// True for tensor series (six columns `.xx .yy .zz .xy .yz .xz`).
    pub fn is_tensor(&self) -> bool {
        matches!(
            self,
            Source::Measure(_, MeasureQuantity::Stress | MeasureQuantity::Fabric)
                | Source::DomainStress
        )
    }

    /// Indices into [`TENSOR_COLUMNS`] recorded: the cell's stress in 2D has xx, yy, xy only.
    pub fn tensor_components(&self, planar: bool) -> Vec<usize> {
        match (self, planar) {
            (Source::DomainStress, true) => vec![0, 1, 3],
            _ => (0..6).collect(),
        }
    }

    /// The suffixes of the columns recorded (`x`, `y`, `z` of a vector, those of
    /// [`TENSOR_COLUMNS`] of a tensor; none for a scalar).
    pub fn suffixes(&self, planar: bool) -> Vec<&'static str> {
        if self.is_tensor() {
            (self.tensor_components(planar).iter())
                .map(|&c| TENSOR_COLUMNS[c])
                .collect()
        } else if self.is_vector() {
            self.components(planar)
                .iter()
                .map(|&c| ["x", "y", "z"][c])
                .collect()
        } else {
            Vec::new()
        }
    }

    /// True when `column` names a column of this series: the series itself for a scalar, one
    /// of its suffixed columns for a vector or a tensor.
    pub fn names_column(&self, column: &str, planar: bool) -> bool {
        let base = base_series(column);
        match column.strip_prefix(base).and_then(|s| s.strip_prefix('.')) {
            None => !self.has_columns(),
            Some(suffix) => self.suffixes(planar).contains(&suffix),
        }
    }

    /// True when the series is recorded as columns with suffixes (a vector or a tensor).
    pub fn has_columns(&self) -> bool {
        self.is_vector() || self.is_tensor()
    }

    /// The components of a vector series that are recorded: all three in 3D; in 2D (docs/CASES.md
    /// section 3) `z` alone for angular quantities (spin, moment, angular momentum, a wall's
    /// rotation) and `x, y` for the others.
    pub fn components(&self, planar: bool) -> Vec<usize> {
        let angular = matches!(
            self,
            Source::Ball(_, BallQuantity::Spin | BallQuantity::Moment)
                | Source::Clump(
                    _,
                    ClumpQuantity::Body(BallQuantity::Spin | BallQuantity::Moment)
                )
                | Source::Clump(_, ClumpQuantity::AngMom)
                | Source::Wall(_, WallQuantity::Moment | WallQuantity::Rotation)
        );
        match (planar, angular) {
            (false, _) => vec![0, 1, 2],
            (true, true) => vec![2],
            (true, false) => vec![0, 1],
        }
    }

    /// True when the source reads the energy books ([`Model::keep_energy_books`]).
    pub fn needs_energy_books(&self) -> bool {
        matches!(
            self,
            Source::Dissipated
                | Source::Work
                | Source::Balance
                | Source::Integrator
                | Source::Dashpots
                | Source::Models
        )
    }

    /// True when the source follows particular bodies (by the index of their pieces).
    pub fn follows_pieces(&self) -> bool {
        matches!(
            self,
            Source::Ball(..)
                | Source::Pair(..)
                | Source::BallWall(..)
                | Source::Clump(..)
                | Source::Group(..)
                | Source::GroupWall(..)
        )
    }
}

/// The index of the ball with id `s`, for series `name`.
fn ball(name: &str, model: &Model, s: &str) -> Result<usize, String> {
    let id: u64 = s
        .parse()
        .map_err(|_| format!("\"{name}\": \"{s}\" is not a ball id"))?;
    model
        .ball_index(id)
        .ok_or_else(|| format!("\"{name}\": there is no ball with id {id}"))
}

/// The index of the clump with id `s`, if there is one.
fn clump_index(model: &Model, s: &str) -> Option<usize> {
    s.parse().ok().and_then(|id| model.clump_index(id))
}

/// The pieces (pebbles) of clump `c`.
fn pieces(model: &Model, c: usize) -> Pieces {
    let first = model.clumps.first[c] as usize;
    (first, first + model.clumps.count[c] as usize)
}

/// A quantity that balls and clumps both have.
fn body_quantity(q: &str) -> Option<BallQuantity> {
    Some(match q {
        "pos" => BallQuantity::Pos,
        "vel" => BallQuantity::Vel,
        "spin" => BallQuantity::Spin,
        "force" => BallQuantity::Force,
        "moment" => BallQuantity::Moment,
        _ => return None,
    })
}

/// `clump/<id>/<quantity>`: `rest` is the name after the id.
fn parse_clump(name: &str, model: &Model, id: &str, rest: &[&str]) -> Result<Source, String> {
    let c = clump_index(model, id)
        .ok_or_else(|| format!("\"{name}\": there is no clump with id {id}"))?;
    let q = match rest {
        ["angmom"] => ClumpQuantity::AngMom,
        [q] if body_quantity(q).is_some() => {
            ClumpQuantity::Body(body_quantity(q).unwrap_or(BallQuantity::Pos))
        }
        ["pebble", k, q @ ("pos" | "force")] => {
            let n = model.clumps.count[c] as usize;
            match k.parse::<usize>() {
                Ok(k) if (1..=n).contains(&k) && *q == "pos" => ClumpQuantity::Pebble(k - 1),
                Ok(k) if (1..=n).contains(&k) => ClumpQuantity::PebbleForce(k - 1),
                _ => return Err(format!("\"{name}\": pebble \"{k}\": the clump has pebbles 1 to {n}")),
            }
        }
        _ => return Err(format!("\"{name}\": unknown clump quantity (pos, vel, spin, force, moment, angmom, pebble/<k>/pos, pebble/<k>/force)")),
    };
    Ok(Source::Clump(c, q))
}

/// `interaction/<id>/<id or wall>/<quantity>` where one body at least is a clump.
fn parse_group(name: &str, model: &Model, (a, b): (&str, &str), q: &str) -> Result<Source, String> {
    let q = pair_quantity(name, q)?;
    let body = |s: &str| -> Result<Pieces, String> {
        match clump_index(model, s) {
            Some(c) => Ok(pieces(model, c)),
            None => ball(name, model, s).map(|i| (i, i + 1)),
        }
    };
    let pa = body(a)?;
    if clump_index(model, b).is_none() {
        if let Some(w) = b
            .parse::<u64>()
            .map_or(true, |id| model.ball_index(id).is_none())
            .then(|| model.wall_index(b))
            .flatten()
        {
            return Ok(Source::GroupWall(pa, w, q));
        }
    }
    let pb = body(b).map_err(|e| format!("{e} (nor a clump, nor a wall named \"{b}\")"))?;
    if q == PairQuantity::Touching {
        return Err(format!(
            "\"{name}\": touching applies to interactions with a wall"
        ));
    }
    if pa == pb {
        return Err(format!("\"{name}\": a body does not interact with itself"));
    }
    Ok(Source::Group(pa, pb, q))
}

/// `ball/<id>/<quantity>`.
fn parse_ball(name: &str, model: &Model, id: &str, q: &str) -> Result<Source, String> {
    let q = match q {
        "pos" => BallQuantity::Pos,
        "vel" => BallQuantity::Vel,
        "spin" => BallQuantity::Spin,
        "force" => BallQuantity::Force,
        "moment" => BallQuantity::Moment,
        _ => {
            return Err(format!(
                "\"{name}\": unknown ball quantity \"{q}\" (pos, vel, spin, force, moment)"
            ))
        }
    };
    Ok(Source::Ball(ball(name, model, id)?, q))
}

/// `interaction/<id>/<id or wall>/<quantity>` between balls, or a ball and a wall.
fn parse_interaction(
    name: &str,
    model: &Model,
    (a, b): (&str, &str),
    q: &str,
) -> Result<Source, String> {
    let q = pair_quantity(name, q)?;
    let a = ball(name, model, a)?;
    if b.parse::<u64>()
        .map_or(true, |id| model.ball_index(id).is_none())
    {
        if let Some(w) = model.wall_index(b) {
            return Ok(Source::BallWall(a, w, q));
        }
    }
    let b = ball(name, model, b).map_err(|e| format!("{e} (nor a wall named \"{b}\")"))?;
    if q == PairQuantity::Touching {
        return Err(format!(
            "\"{name}\": touching applies to ball-wall interactions"
        ));
    }
    if a == b {
        return Err(format!("\"{name}\": a ball does not interact with itself"));
    }
    Ok(Source::Pair(a, b, q))
}

/// `wall/<name>/<quantity>`.
fn parse_wall(name: &str, model: &Model, w: &str, q: &str) -> Result<Source, String> {
    let w = model
        .wall_index(w)
        .ok_or_else(|| format!("\"{name}\": there is no wall named \"{w}\""))?;
    let q = match q {
        "force" => WallQuantity::Force,
        "moment" => WallQuantity::Moment,
        "rotation" => WallQuantity::Rotation,
        "pos" => WallQuantity::Pos,
        "vel" => WallQuantity::Vel,
        _ => {
            return Err(format!(
                "\"{name}\": unknown wall quantity \"{q}\" (force, moment, rotation, pos, vel)"
            ))
        }
    };
    Ok(Source::Wall(w, q))
}

/// `insert/<name>/<quantity>`.
fn parse_insert(name: &str, model: &Model, n: &str, q: &str) -> Result<Source, String> {
    let names: Vec<&str> = (model.flow.inserts.iter())
        .map(|i| i.spec.name.as_str())
        .collect();
    let k = names.iter().position(|x| *x == n).ok_or_else(|| {
        format!(
            "\"{name}\": no insertion named \"{n}\" (defined: {})",
            names.join(", ")
        )
    })?;
    Ok(match q {
        "count" => Source::InsertCount(k),
        "mass" => Source::InsertMass(k),
        "pending" => Source::InsertPending(k),
        _ => {
            return Err(format!(
                "\"{name}\": unknown quantity \"{q}\" (count, mass, pending)"
            ))
        }
    })
}

/// `outlet/<name>/<quantity>`.
fn parse_outlet(name: &str, model: &Model, n: &str, q: &str) -> Result<Source, String> {
    let names: Vec<&str> = (model.flow.outlets.iter())
        .map(|o| o.name.as_str())
        .collect();
    let k = names.iter().position(|x| *x == n).ok_or_else(|| {
        format!(
            "\"{name}\": no outlet named \"{n}\" (defined: {})",
            names.join(", ")
        )
    })?;
    Ok(match q {
        "count" => Source::OutletCount(k),
        "mass" => Source::OutletMass(k),
        _ => {
            return Err(format!(
                "\"{name}\": unknown quantity \"{q}\" (count, mass)"
            ))
        }
    })
}

/// `measure/<name>/<quantity>`.
fn parse_measure(name: &str, model: &Model, n: &str, q: &str) -> Result<Source, String> {
    let names: Vec<&str> = model.measures.iter().map(|m| m.name.as_str()).collect();
    let k = names.iter().position(|x| *x == n).ok_or_else(|| {
        format!(
            "\"{name}\": no measurement region named \"{n}\" (defined: {})",
            names.join(", ")
        )
    })?;
    let q = match q {
        "stress" => MeasureQuantity::Stress,
        "coordination" => MeasureQuantity::Coordination,
        "fabric" => MeasureQuantity::Fabric,
        "porosity" => MeasureQuantity::Porosity,
        "mass" => MeasureQuantity::Mass,
        "velocity" => MeasureQuantity::Velocity,
        _ => return Err(format!("\"{name}\": unknown quantity \"{q}\" (stress, coordination, fabric, porosity, mass, velocity)")),
    };
    Ok(Source::Measure(k, q))
}

/// An interaction quantity, for series `name`.
fn pair_quantity(name: &str, q: &str) -> Result<PairQuantity, String> {
    Ok(match q {
        "active" => PairQuantity::Active,
        "normal_force" => PairQuantity::NormalForce,
        "shear_force" => PairQuantity::ShearForce,
        "normal" => PairQuantity::Normal,
        "overlap" => PairQuantity::Overlap,
        "touching" => PairQuantity::Touching,
        _ => return Err(format!("\"{name}\": unknown interaction quantity \"{q}\" (active, normal_force, shear_force, normal, overlap, touching)")),
    })
}
