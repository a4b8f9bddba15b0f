//! Named series (docs/CASES.md, section 13) and how each is read from a model.

use crate::math::Real;
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
    /// `balls/top`: the highest point of any ball, `z + r` (2D: `y + r`), m (project
    /// extension; the height of a heap or a bed).
    Top,
    /// `contacts/handovers`: ball-facet contact states handed to another facet since the
    /// start (full resolution mode; project extension).
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
        let ball = |s: &str| -> Result<usize, String> {
            let id: u64 = s
                .parse()
                .map_err(|_| format!("\"{name}\": \"{s}\" is not a ball id"))?;
            model
                .ball_index(id)
                .ok_or_else(|| format!("\"{name}\": there is no ball with id {id}"))
        };
        let clump =
            |s: &str| -> Option<usize> { s.parse().ok().and_then(|id| model.clump_index(id)) };
        let pieces = |c: usize| -> Pieces {
            let first = model.clumps.first[c] as usize;
            (first, first + model.clumps.count[c] as usize)
        };
        let body_quantity = |q: &str| -> Option<BallQuantity> {
            Some(match q {
                "pos" => BallQuantity::Pos,
                "vel" => BallQuantity::Vel,
                "spin" => BallQuantity::Spin,
                "force" => BallQuantity::Force,
                "moment" => BallQuantity::Moment,
                _ => return None,
            })
        };
        Ok(match parts.as_slice() {
            ["clump", id, rest @ ..] => {
                let c = clump(id)
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
                Source::Clump(c, q)
            }
            ["interaction", a, b, q] if clump(a).is_some() || clump(b).is_some() => {
                let q = pair_quantity(name, q)?;
                let body = |s: &str| -> Result<Pieces, String> {
                    match clump(s) {
                        Some(c) => Ok(pieces(c)),
                        None => ball(s).map(|i| (i, i + 1)),
                    }
                };
                let pa = body(a)?;
                if clump(b).is_none() {
                    if let Some(w) = b
                        .parse::<u64>()
                        .map_or(true, |id| model.ball_index(id).is_none())
                        .then(|| model.wall_index(b))
                        .flatten()
                    {
                        return Ok(Source::GroupWall(pa, w, q));
                    }
                }
                let pb =
                    body(b).map_err(|e| format!("{e} (nor a clump, nor a wall named \"{b}\")"))?;
                if q == PairQuantity::Touching {
                    return Err(format!(
                        "\"{name}\": touching applies to interactions with a wall"
                    ));
                }
                if pa == pb {
                    return Err(format!("\"{name}\": a body does not interact with itself"));
                }
                Source::Group(pa, pb, q)
            }
            ["ball", id, q] => {
                let q = match *q {
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
                Source::Ball(ball(id)?, q)
            }
            ["interaction", a, b, q] => {
                let q = pair_quantity(name, q)?;
                let a = ball(a)?;
                if b.parse::<u64>()
                    .map_or(true, |id| model.ball_index(id).is_none())
                {
                    if let Some(w) = model.wall_index(b) {
                        return Ok(Source::BallWall(a, w, q));
                    }
                }
                let b = ball(b).map_err(|e| format!("{e} (nor a wall named \"{b}\")"))?;
                if q == PairQuantity::Touching {
                    return Err(format!(
                        "\"{name}\": touching applies to ball-wall interactions"
                    ));
                }
                if a == b {
                    return Err(format!("\"{name}\": a ball does not interact with itself"));
                }
                Source::Pair(a, b, q)
            }
            ["wall", w, q] => {
                let w = model
                    .wall_index(w)
                    .ok_or_else(|| format!("\"{name}\": there is no wall named \"{w}\""))?;
                let q = match *q {
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
                Source::Wall(w, q)
            }
            ["contacts", "active"] => Source::ContactsActive,
            ["contacts", "handovers"] => Source::Handovers,
            ["contacts", "balls"] => Source::BallContacts,
            ["contacts", "walls"] => Source::WallContacts,
            ["balls", "mean_pos"] => Source::MeanPos,
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
            ["insert", n, q] => {
                let names: Vec<&str> = (model.flow.inserts.iter())
                    .map(|i| i.spec.name.as_str())
                    .collect();
                let k = names.iter().position(|x| x == n).ok_or_else(|| {
                    format!(
                        "\"{name}\": no insertion named \"{n}\" (defined: {})",
                        names.join(", ")
                    )
                })?;
                match *q {
                    "count" => Source::InsertCount(k),
                    "mass" => Source::InsertMass(k),
                    "pending" => Source::InsertPending(k),
                    _ => {
                        return Err(format!(
                            "\"{name}\": unknown quantity \"{q}\" (count, mass, pending)"
                        ))
                    }
                }
            }
            ["outlet", n, q] => {
                let names: Vec<&str> = (model.flow.outlets.iter())
                    .map(|o| o.name.as_str())
                    .collect();
                let k = names.iter().position(|x| x == n).ok_or_else(|| {
                    format!(
                        "\"{name}\": no outlet named \"{n}\" (defined: {})",
                        names.join(", ")
                    )
                })?;
                match *q {
                    "count" => Source::OutletCount(k),
                    "mass" => Source::OutletMass(k),
                    _ => {
                        return Err(format!(
                            "\"{name}\": unknown quantity \"{q}\" (count, mass)"
                        ))
                    }
                }
            }
            ["measure", n, q] => {
                let names: Vec<&str> = model.measures.iter().map(|m| m.name.as_str()).collect();
                let k = names.iter().position(|x| x == n).ok_or_else(|| {
                    format!(
                        "\"{name}\": no measurement region named \"{n}\" (defined: {})",
                        names.join(", ")
                    )
                })?;
                let q = match *q {
                    "stress" => MeasureQuantity::Stress,
                    "coordination" => MeasureQuantity::Coordination,
                    "fabric" => MeasureQuantity::Fabric,
                    "porosity" => MeasureQuantity::Porosity,
                    "mass" => MeasureQuantity::Mass,
                    _ => return Err(format!("\"{name}\": unknown quantity \"{q}\" (stress, coordination, fabric, porosity, mass)")),
                };
                Source::Measure(k, q)
            }
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
        )
    }

    /// True for tensor series (six columns `.xx .yy .zz .xy .yz .xz`).
    pub fn is_tensor(&self) -> bool {
        matches!(
            self,
            Source::Measure(_, MeasureQuantity::Stress | MeasureQuantity::Fabric)
        )
    }

    /// The suffixes of the columns recorded (`x`, `y`, `z` of a vector, those of
    /// [`TENSOR_COLUMNS`] of a tensor; none for a scalar).
    pub fn suffixes(&self, planar: bool) -> Vec<&'static str> {
        if self.is_tensor() {
            TENSOR_COLUMNS.to_vec()
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

    /// Appends the current value(s) to `out`.
    pub fn sample(&self, model: &Model, out: &mut Vec<Real>) {
        let b = &model.balls;
        match *self {
            Source::Ball(i, q) => {
                let v = match q {
                    BallQuantity::Pos => b.pos[i],
                    BallQuantity::Vel => model.synchronized_velocity(i),
                    BallQuantity::Spin => model.synchronized_spin(i),
                    BallQuantity::Force => b.force[i],
                    BallQuantity::Moment => b.moment[i],
                };
                out.extend_from_slice(v.as_slice());
            }
            Source::Pair(i, j, q) => {
                let contacts = &model.contacts;
                // the force and the normal of the active contact
                let contact = contacts.find_active(i as u32, j as u32).map(|k| {
                    (
                        contacts.contact_force(k, b, &model.laws),
                        contacts.geometry(k, b).normal,
                    )
                });
                let d = b.pos[j] - b.pos[i];
                match q {
                    PairQuantity::Active => out.push(contact.is_some() as u8 as Real),
                    PairQuantity::NormalForce => {
                        out.push(contact.map_or(0.0, |(f, n)| f.dot(&n).abs()))
                    }
                    PairQuantity::ShearForce => {
                        out.push(contact.map_or(0.0, |(f, n)| (f - n * f.dot(&n)).norm()))
                    }
                    PairQuantity::Normal => {
                        let n = d.try_normalize(0.0).unwrap_or_default();
                        out.extend_from_slice(n.as_slice());
                    }
                    PairQuantity::Overlap => out.push(b.radius[i] + b.radius[j] - d.norm()),
                    // Refused by `parse`.
                    PairQuantity::Touching => out.push(Real::NAN),
                }
            }
            Source::BallWall(i, w, q) => sample_ball_wall(model, (i, i + 1), w, q, out),
            Source::GroupWall(p, w, q) => sample_ball_wall(model, p, w, q, out),
            Source::Group(pa, pb, q) => sample_group(model, pa, pb, q, out),
            Source::Clump(c, q) => {
                let cl = &model.clumps;
                let v = match q {
                    ClumpQuantity::Body(BallQuantity::Pos) => cl.pos[c],
                    ClumpQuantity::Body(BallQuantity::Vel) => model.clump_velocity(c),
                    ClumpQuantity::Body(BallQuantity::Spin) => {
                        cl.synchronized_spin(c, model.last_dt)
                    }
                    ClumpQuantity::Body(BallQuantity::Force) => cl.force[c],
                    ClumpQuantity::Body(BallQuantity::Moment) => cl.moment[c],
                    ClumpQuantity::AngMom => cl.synchronized_angmom(c, model.last_dt),
                    ClumpQuantity::Pebble(k) => b.pos[cl.first[c] as usize + k],
                    ClumpQuantity::PebbleForce(k) => b.force[cl.first[c] as usize + k],
                };
                out.extend_from_slice(v.as_slice());
            }
            Source::Wall(w, q) => {
                let v = match q {
                    WallQuantity::Force => model.wall_resultant(w).0,
                    WallQuantity::Moment => model.wall_resultant(w).1,
                    WallQuantity::Rotation => model.walls[w].rotation.scaled_axis(),
                    WallQuantity::Pos => model.walls[w].pivot,
                    WallQuantity::Vel => match &model.walls[w].motion {
                        crate::body::WallMotion::Rigid { vel, .. } => *vel,
                        crate::body::WallMotion::Deformable { .. } => crate::math::Vec3::zeros(),
                    },
                };
                out.extend_from_slice(v.as_slice());
            }
            Source::ContactsActive => out.push(
                (model.contacts.active_count() + model.facet_contacts.active_count()) as Real,
            ),
            Source::Handovers => out.push(model.facet_contacts.handovers as Real),
            Source::BallContacts => out.push(model.contacts.active_count() as Real),
            Source::WallContacts => out.push(model.facet_contacts.active_count() as Real),
            Source::MeanPos => {
                let sum = b
                    .pos
                    .iter()
                    .fold(crate::math::Vec3::zeros(), |acc, p| acc + p);
                let mean = sum / (b.len().max(1) as Real);
                out.extend_from_slice(mean.as_slice());
            }
            Source::Top => {
                let up = if model.planar { 1 } else { 2 };
                let top = (0..b.len())
                    .map(|i| b.pos[i][up] + b.radius[i])
                    .fold(Real::NEG_INFINITY, Real::max);
                out.push(top);
            }
            Source::Hidden => out.push(model.facet_contacts.hidden as Real),
            Source::Proximity => out.push(model.facet_contacts.proximity as Real),
            Source::FixedForce => {
                let all = crate::body::dof::TRANSLATION;
                let f = (0..b.len())
                    .filter(|&i| b.fixed[i] & all == all && !b.is_pebble(i))
                    .fold(crate::math::Vec3::zeros(), |acc, i| acc + b.force[i]);
                out.extend_from_slice(f.as_slice());
            }
            Source::Kinetic => out.push(model.kinetic_energy()),
            Source::Strain => out.push(model.strain_energy()),
            Source::Potential => out.push(model.potential_energy()),
            Source::Dissipated => out.push(model.energy_books().map_or(0.0, |b| b.dissipated())),
            Source::Work => out.push(model.energy_books().map_or(0.0, |b| b.work())),
            Source::Balance => out.push(model.energy_balance()),
            Source::Integrator => out.push(model.energy_books().map_or(0.0, |b| b.integrator)),
            Source::Dashpots => out.push(model.energy_books().map_or(0.0, |b| b.dashpots)),
            Source::Models => out.push(model.energy_books().map_or(0.0, |b| b.contacts)),
            Source::Exchanged => out.push(model.flow.exchanged),
            Source::InsertCount(k) => out.push(model.flow.inserts[k].placed as Real),
            Source::InsertMass(k) => out.push(model.flow.inserts[k].placed_mass),
            Source::InsertPending(k) => out.push(model.flow.inserts[k].pending),
            Source::OutletCount(k) => out.push(model.flow.outlets[k].count as Real),
            Source::OutletMass(k) => out.push(model.flow.outlets[k].mass),
            Source::BallsCount => out.push(model.ball_count_and_mass().0 as Real),
            Source::BallsMass => out.push(model.ball_count_and_mass().1),
            Source::Measure(k, q) => {
                let m = super::measure::measure(model, &model.measures[k]);
                match q {
                    MeasureQuantity::Stress => out.extend_from_slice(&m.stress),
                    MeasureQuantity::Fabric => out.extend_from_slice(&m.fabric),
                    MeasureQuantity::Coordination => out.push(m.coordination),
                    MeasureQuantity::Porosity => out.push(m.porosity),
                    MeasureQuantity::Mass => out.push(m.mass),
                }
            }
            Source::Dt => out.push(model.last_dt),
            Source::UnbalancedRatio => out.push(model.unbalanced_ratio()),
        }
    }
}

/// An interaction between ball `i` and wall `w`. With active contacts: their number, the
/// resultant normal `N = sum U_k n_k / |sum U_k n_k|` (overlap-weighted, from the ball towards
/// the wall), the normal and shear parts of the resultant force on the ball along `N`, and the
/// largest overlap. Without: zeros, the direction to the nearest facet, and the (negative)
/// overlap `R - d` to it, found over every facet of the wall.
/// For a clump, the interactions of all its pebbles with the wall count as one; the nearest
/// facet is the one closest to a pebble's surface.
fn sample_ball_wall(model: &Model, p: Pieces, w: usize, q: PairQuantity, out: &mut Vec<Real>) {
    use crate::math::Vec3;
    let fc = &model.facet_contacts;
    let runs = || (p.0..p.1).filter_map(|i| fc.interaction(i as u32, w as u32));
    let active: Vec<&crate::contact::FacetContact> = runs()
        .flat_map(|it| fc.contacts_of(it).iter().filter(|c| c.active))
        .collect();
    // (vector from the piece's centre to the nearest point, that piece's index)
    let nearest_of = || {
        let wall = &model.walls[w];
        (p.0..p.1)
            .flat_map(|i| {
                let x = model.balls.pos[i];
                (0..wall.mesh.len()).map(move |f| {
                    (
                        crate::geom::closest_point(&x, &wall.mesh.corners(f)).point - x,
                        i,
                    )
                })
            })
            .min_by(|a, b| {
                (a.0.norm() - model.balls.radius[a.1])
                    .total_cmp(&(b.0.norm() - model.balls.radius[b.1]))
            })
            .unwrap_or((Vec3::zeros(), p.0))
    };
    let nearest = || nearest_of().0;
    let normal = || {
        let s = active
            .iter()
            .fold(Vec3::zeros(), |a, c| a + c.normal * c.overlap);
        s.try_normalize(0.0)
            .unwrap_or_else(|| nearest().try_normalize(0.0).unwrap_or_else(Vec3::zeros))
    };
    let force = || active.iter().fold(Vec3::zeros(), |a, c| a + c.force);
    match q {
        PairQuantity::Active => out.push(active.len() as Real),
        PairQuantity::Touching => out.push(
            runs()
                .map(|it| fc.contacts_of(it).iter().filter(|c| c.touching).count())
                .sum::<usize>() as Real,
        ),
        PairQuantity::NormalForce => out.push(force().dot(&normal()).abs()),
        PairQuantity::ShearForce => {
            let (f, n) = (force(), normal());
            out.push((f - n * f.dot(&n)).norm())
        }
        PairQuantity::Normal => out.extend_from_slice(normal().as_slice()),
        PairQuantity::Overlap => {
            out.push(match active.iter().map(|c| c.overlap).reduce(Real::max) {
                Some(u) => u,
                None => {
                    let (d, i) = nearest_of();
                    model.balls.radius[i] - d.norm()
                }
            })
        }
    }
}

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

/// The interaction of two bodies of which one at least is a clump: every contact between a
/// piece of `a` and a piece of `b`. With active contacts: their number, the overlap-weighted
/// resultant normal from `a` towards `b`, the normal and shear parts of the resultant force on
/// `b` along it, the largest overlap. Without: zeros, the direction of the closest pair of
/// pieces and their (negative) overlap.
fn sample_group(model: &Model, a: Pieces, b: Pieces, q: PairQuantity, out: &mut Vec<Real>) {
    use crate::math::Vec3;
    let balls = &model.balls;
    let mut active = Vec::new();
    // closest pair of pieces: (overlap, unit vector from a's piece to b's)
    let mut closest = (Real::NEG_INFINITY, Vec3::zeros());
    for i in a.0..a.1 {
        for j in b.0..b.1 {
            let g = crate::contact::ball_ball::geometry(
                &balls.pos[i],
                &balls.pos[j],
                balls.radius[i],
                balls.radius[j],
            );
            if g.overlap > closest.0 {
                closest = (g.overlap, g.normal);
            }
            if let Some(k) = model.contacts.find_active(i as u32, j as u32) {
                let f = model.contacts.contact_force(k, balls, &model.laws);
                // the contact's force acts on its higher index (`g` is from i to j already)
                let sign = if i < j { 1.0 } else { -1.0 };
                active.push((g.overlap, g.normal, f * sign));
            }
        }
    }
    let normal = active
        .iter()
        .fold(Vec3::zeros(), |s, (u, n, _)| s + n * *u)
        .try_normalize(0.0)
        .unwrap_or(closest.1);
    let force = active.iter().fold(Vec3::zeros(), |s, (_, _, f)| s + f);
    match q {
        PairQuantity::Active => out.push(active.len() as Real),
        PairQuantity::NormalForce => out.push(force.dot(&normal).abs()),
        PairQuantity::ShearForce => out.push((force - normal * force.dot(&normal)).norm()),
        PairQuantity::Normal => out.extend_from_slice(normal.as_slice()),
        PairQuantity::Overlap => out.push(
            active
                .iter()
                .map(|x| x.0)
                .reduce(Real::max)
                .unwrap_or(closest.0),
        ),
        // Refused by `parse`.
        PairQuantity::Touching => out.push(Real::NAN),
    }
}

/// The unit of a series or column (docs/CASES.md, "Series"), "" for a count or a ratio:
/// `ball/1/pos.z` -> "m", `energy/kinetic` -> "J", `interaction/1/2/active` -> "".
pub fn series_unit(column: &str) -> &'static str {
    let base = base_series(column);
    if base == "dt" {
        return "s";
    }
    if base.starts_with("energy/") {
        return "J";
    }
    match base.rsplit('/').next().unwrap_or("") {
        "pos" | "overlap" | "mean_pos" | "top" => "m",
        "vel" => "m/s",
        "spin" => "rad/s",
        "rotation" => "rad",
        "force" | "normal_force" | "shear_force" => "N",
        "moment" => "N m",
        "angmom" => "kg m²/s",
        "mass" => "kg",
        "stress" => "Pa",
        _ => "",
    }
}

/// An axis title for a series: its name and unit, `ball/1/pos.z (m)`.
pub fn axis_title(column: &str) -> String {
    match series_unit(column) {
        "" => format!("{column} (-)"),
        u => format!("{column} ({u})"),
    }
}

/// The series a vector, tensor or scalar column name belongs to: `ball/1/pos.z` -> `ball/1/pos`.
pub fn base_series(column: &str) -> &str {
    for suffix in [".xx", ".yy", ".zz", ".xy", ".yz", ".xz", ".x", ".y", ".z"] {
        if let Some(base) = column.strip_suffix(suffix) {
            return base;
        }
    }
    column
}
