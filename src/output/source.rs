//! Named series (SPEC section 3) and how each is read from a model.

use crate::math::Real;
use crate::model::Model;

/// A quantity of one ball.
#[derive(Clone, Copy, Debug, PartialEq)]
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
#[derive(Clone, Copy, Debug, PartialEq)]
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

/// A quantity of one wall.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WallQuantity {
    /// Total contact force on the wall, N.
    Force,
    /// Total contact moment about the pivot, N m.
    Moment,
    /// Rotation vector (axis times angle) since the start, rad.
    Rotation,
}

/// Where a recorded series comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// `ball/<id>/<quantity>`.
    Ball(usize, BallQuantity),
    /// `interaction/<id>/<id>/<quantity>`.
    Pair(usize, usize, PairQuantity),
    /// `interaction/<ball id>/<wall name>/<quantity>` (ball index, wall index).
    BallWall(usize, usize, PairQuantity),
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
    /// `dt`, s.
    Dt,
    /// `force/unbalanced_ratio`: mean unbalanced force over the mean contact force
    /// (project extension; see [`Model::unbalanced_ratio`]).
    UnbalancedRatio,
}

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
        Ok(match parts.as_slice() {
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
                let q = match *q {
                    "active" => PairQuantity::Active,
                    "normal_force" => PairQuantity::NormalForce,
                    "shear_force" => PairQuantity::ShearForce,
                    "normal" => PairQuantity::Normal,
                    "overlap" => PairQuantity::Overlap,
                    "touching" => PairQuantity::Touching,
                    _ => return Err(format!("\"{name}\": unknown interaction quantity \"{q}\" (active, normal_force, shear_force, normal, overlap, touching)")),
                };
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
                    _ => {
                        return Err(format!(
                            "\"{name}\": unknown wall quantity \"{q}\" (force, moment, rotation)"
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
            ["contacts", "hidden"] => Source::Hidden,
            ["contacts", "proximity"] => Source::Proximity,
            ["fixed", "force"] => Source::FixedForce,
            ["energy", "kinetic"] => Source::Kinetic,
            ["energy", "strain"] => Source::Strain,
            ["energy", "potential"] => Source::Potential,
            ["dt"] => Source::Dt,
            ["force", "unbalanced_ratio"] => Source::UnbalancedRatio,
            _ => return Err(format!("unknown series \"{name}\" (see SPEC section 3)")),
        })
    }

    /// True for vector series (three columns `.x .y .z`).
    pub fn is_vector(&self) -> bool {
        matches!(
            self,
            Source::Ball(..)
                | Source::Pair(_, _, PairQuantity::Normal)
                | Source::BallWall(_, _, PairQuantity::Normal)
                | Source::Wall(..)
                | Source::FixedForce
                | Source::MeanPos
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
                let contact = model.contacts.find(i as u32, j as u32).filter(|c| c.active);
                let d = b.pos[j] - b.pos[i];
                match q {
                    PairQuantity::Active => out.push(contact.is_some() as u8 as Real),
                    PairQuantity::NormalForce => {
                        out.push(contact.map_or(0.0, |c| c.force.dot(&c.normal).abs()))
                    }
                    PairQuantity::ShearForce => out.push(contact.map_or(0.0, |c| {
                        (c.force - c.normal * c.force.dot(&c.normal)).norm()
                    })),
                    PairQuantity::Normal => {
                        let n = d.try_normalize(0.0).unwrap_or_default();
                        out.extend_from_slice(n.as_slice());
                    }
                    PairQuantity::Overlap => out.push(b.radius[i] + b.radius[j] - d.norm()),
                    // Refused by `parse`.
                    PairQuantity::Touching => out.push(Real::NAN),
                }
            }
            Source::BallWall(i, w, q) => sample_ball_wall(model, i, w, q, out),
            Source::Wall(w, q) => {
                let wall = &model.walls[w];
                let v = match q {
                    WallQuantity::Force => wall.force,
                    WallQuantity::Moment => wall.moment,
                    WallQuantity::Rotation => wall.rotation.scaled_axis(),
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
            Source::Hidden => out.push(model.facet_contacts.hidden as Real),
            Source::Proximity => out.push(model.facet_contacts.proximity as Real),
            Source::FixedForce => {
                let all = crate::model::dof::TRANSLATION;
                let f = (0..b.len())
                    .filter(|&i| b.fixed[i] & all == all)
                    .fold(crate::math::Vec3::zeros(), |acc, i| acc + b.force[i]);
                out.extend_from_slice(f.as_slice());
            }
            Source::Kinetic => out.push(model.kinetic_energy()),
            Source::Strain => out.push(model.strain_energy()),
            Source::Potential => out.push(model.potential_energy()),
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
fn sample_ball_wall(model: &Model, i: usize, w: usize, q: PairQuantity, out: &mut Vec<Real>) {
    use crate::math::Vec3;
    let fc = &model.facet_contacts;
    let active: Vec<&crate::contact::FacetContact> = fc
        .interaction(i as u32, w as u32)
        .map(|it| fc.contacts_of(it).iter().filter(|c| c.active).collect())
        .unwrap_or_default();
    let nearest = || {
        let x = model.balls.pos[i];
        let wall = &model.walls[w];
        (0..wall.mesh.len())
            .map(|f| crate::geom::closest_point(&x, &wall.mesh.corners(f)).point - x)
            .min_by(|a, b| a.norm_squared().total_cmp(&b.norm_squared()))
            .unwrap_or_else(Vec3::zeros)
    };
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
        PairQuantity::Touching => out.push(fc.interaction(i as u32, w as u32).map_or(0, |it| {
            fc.contacts_of(it).iter().filter(|c| c.touching).count()
        }) as Real),
        PairQuantity::NormalForce => out.push(force().dot(&normal()).abs()),
        PairQuantity::ShearForce => {
            let (f, n) = (force(), normal());
            out.push((f - n * f.dot(&n)).norm())
        }
        PairQuantity::Normal => out.extend_from_slice(normal().as_slice()),
        PairQuantity::Overlap => {
            out.push(match active.iter().map(|c| c.overlap).reduce(Real::max) {
                Some(u) => u,
                None => model.balls.radius[i] - nearest().norm(),
            })
        }
    }
}
