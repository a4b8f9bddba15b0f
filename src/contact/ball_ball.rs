//! Geometry and force of a ball-ball contact.

use super::{Contact, Frame, FrameFlags};
use crate::body::Balls;
use crate::law::{
    history, Cohesion, ContactModel, Kinematics, LawState, Pieces, Rolling, RollingInput,
};
use crate::math::{Real, Vec3};

/// Effective mass of two bodies given as `Option` (None: infinitely heavy), kg.
#[inline]
pub(crate) fn effective_mass(a: Option<Real>, b: Option<Real>) -> Real {
    match (a, b) {
        (Some(ma), Some(mb)) => ma * mb / (ma + mb),
        (Some(m), None) | (None, Some(m)) => m,
        (None, None) => 0.0,
    }
}

/// The geometry of two balls: overlap, effective radius, normal and contact point.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    /// `r_a + r_b - |x_b - x_a|`, m (negative: gap).
    pub overlap: Real,
    /// `r_a r_b / (r_a + r_b)`, m.
    pub radius: Real,
    /// Unit normal from a to b.
    pub normal: Vec3,
    /// `x_a + (r_a - overlap/2) n`: the middle of the overlap (or of the gap), m.
    pub point: Vec3,
}

/// The geometry of balls at `pa` (radius `ra`) and `pb` (radius `rb`).
#[inline]
pub fn geometry(pa: &Vec3, pb: &Vec3, ra: Real, rb: Real) -> Geometry {
    let d = pb - pa;
    let dist = d.norm();
    let overlap = ra + rb - dist;
    // NOTE: coincident centres have no normal; pick +z so that the run goes on and the blow-up
    // detector (overlap larger than a radius) reports the pair.
    let normal = if dist > 0.0 { d / dist } else { Vec3::z() };
    Geometry {
        overlap,
        radius: ra * rb / (ra + rb),
        normal,
        // The contact point also exists across a gap (the middle of it): the timestep modes
        // count the stiffness of contacts about to touch, with their lever arms.
        point: pa + normal * (ra - 0.5 * overlap),
    }
}

/// True when balls at `pa` and `pb` (radii `ra`, `rb`) are apart by more than round-off: the
/// force loop computes no geometry for such a pair.
#[inline]
pub fn clearly_apart(pa: &Vec3, pb: &Vec3, ra: Real, rb: Real) -> bool {
    let s = ra + rb;
    (pb - pa).norm_squared() > s * s * (1.0 + 1e-12)
}

/// Where the general update writes a contact's force on b (N, world frame) and its contact
/// point (m): its entries in [`super::Contacts::force`] and [`super::Contacts::point`].
pub struct Out<'a> {
    /// The force entry.
    pub force: &'a mut Vec3,
    /// The contact point entry.
    pub point: &'a mut Vec3,
}

impl Out<'_> {
    /// Writes both entries; returns them.
    #[inline]
    fn set(&mut self, [force, point]: [Vec3; 2]) -> [Vec3; 2] {
        *self.force = force;
        *self.point = point;
        [force, point]
    }
}

/// Ends a contact's activity: no force, state cleared, zero output.
#[inline]
fn deactivate(c: &mut Contact, out: &mut Out) {
    c.active = false;
    c.sliding = false;
    c.state = LawState::default();
    out.set([Vec3::zeros(); 2]);
}

/// The overlap of balls `a` and `b` one step of `dt` earlier, at the positions `x - v dt`
/// from which the last law of motion moved them (exactly, to round-off: it added `v dt`).
#[inline]
pub(crate) fn previous_overlap(balls: &Balls, a: usize, b: usize, dt: Real) -> Real {
    let d = (balls.pos[b] - balls.vel[b] * dt) - (balls.pos[a] - balls.vel[a] * dt);
    balls.radius[a] + balls.radius[b] - d.norm()
}

/// After the geometry: bonds a linear-bond contact within its gap before the first cycle, and
/// releases a contact whose overlap is down to `reach` (0, or for an existing contact with a
/// JKR neck the overlap where the neck breaks, [`Cohesion::reach`]) and holds no bond (no
/// force, state cleared). Returns true when released.
#[inline]
pub(crate) fn released(
    c: &mut Contact,
    out: &mut Out,
    (overlap, reach): (Real, Real),
    law: &ContactModel,
    install_bonds: bool,
) -> bool {
    if install_bonds {
        if let ContactModel::LinearBond(m) = law {
            c.state.set_bonded(overlap >= -m.bond_gap);
        }
    }
    if overlap <= reach && !law.holds(&c.state) {
        if c.active {
            deactivate(c, out);
        } else {
            c.state = LawState::default();
        }
        return true;
    }
    false
}

/// What [`update`] did to a contact.
#[derive(Clone, Copy, Debug)]
pub struct Updated {
    /// The overlap, m (`-inf` for a pair clearly apart, whose geometry is not computed).
    pub overlap: Real,
    /// What was written to the output: force on b and contact point (zeros when inactive).
    pub written: [Vec3; 2],
    /// With energy books: the energy the contact lost in this cycle, J (what its model
    /// reports, [`crate::law::ContactForce::dissipated`], the normal spring's hysteresis or
    /// breakage, [`ContactModel::normal_loss`], and what a spring released with its state
    /// held). 0 without.
    pub dissipated: Real,
    /// With energy books: the normal spring's share of the integration error in this cycle,
    /// J ([`ContactModel::normal_loss`]). 0 without.
    pub integration: Real,
}

/// The elastic force a contact applied at the end of a cycle (normal spring and tangential
/// spring, on b, world frame) and the arms from the balls' centres to its contact point then:
/// what the integrator paired with the steps around that cycle.
#[derive(Clone, Copy, Debug, Default)]
struct Applied {
    force: Vec3,
    arm_a: Vec3,
    arm_b: Vec3,
}

/// The work of `f` over one step on the material points at the ends of the arms: the relative
/// displacement of b's point with respect to a's, `(v_b - v_a) dt + (w_b x arm_b - w_a x
/// arm_a) dt`, with the balls' velocities of the step.
#[inline]
fn step_work(balls: &Balls, a: usize, b: usize, f: &Applied, dt: Real) -> Real {
    let d = (balls.vel[b] - balls.vel[a]) + balls.spin[b].cross(&f.arm_b)
        - balls.spin[a].cross(&f.arm_a);
    f.force.dot(&d) * dt
}

/// A contact's energy books for one cycle (with energy books only).
///
/// The model reports what its springs lost, pairing their forces with its own displacement
/// increments (the tangential increment of its frame, the change of the overlap); the
/// integrator pairs the force each cycle applied with half the step before and half the step
/// after, at that cycle's contact point. The difference (the contact point moves on the balls,
/// the frame turns) is the contact's share of the integration error, and so is what the
/// trapezoidal rule misses of the normal spring's energy ([`ContactModel::normal_loss`]).
struct Ledger<'a> {
    law: &'a ContactModel,
    radius: Real,
    /// Active at the end of the previous cycle, its overlap and state then.
    was: (bool, Real, LawState),
    /// What it applied then.
    old: Applied,
}

impl Ledger<'_> {
    /// `(dissipated, integration error)` of the cycle: `now` the contact's activity, overlap
    /// and state at the end of the cycle, `new` what it applies now, `reported` the model's
    /// report ([`crate::law::ContactForce::dissipated`]), `law_work` the work on the bodies
    /// of the tangential spring as the model paired it (`(F_0 + F_1)/2 . du`).
    fn close(
        &self,
        (balls, a, b, dt): (&Balls, usize, usize, Real),
        now: (bool, Real, &LawState),
        new: &Applied,
        reported: Real,
        law_work: Real,
    ) -> (Real, Real) {
        let was = (self.was.0, self.was.1, &self.was.2);
        let released = if was.0 && !now.0 {
            self.law.shear_energy(was.1, self.radius, was.2)
        } else {
            0.0
        };
        let (normal, integration) = self.law.normal_loss(self.radius, was, now);
        // the normal spring's work on the bodies as the books paired it
        let f = |active: bool, d: Real, s: &LawState| {
            if active {
                self.law.elastic_normal(d, self.radius, s)
            } else {
                0.0
            }
        };
        let normal_work =
            -0.5 * (f(was.0, was.1, was.2) + f(now.0, now.1, now.2)) * (now.1 - was.1);
        let paired =
            0.5 * (step_work(balls, a, b, &self.old, dt) + step_work(balls, a, b, new, dt));
        let pairing = if now.1.is_finite() && was.1.is_finite() {
            paired - (normal_work + law_work)
        } else {
            0.0
        };
        (reported + released + normal, integration + pairing)
    }
}

/// The positions of balls `a` and `b` one step of `dt` earlier, `x - v dt` (exactly what the
/// last law of motion moved them from, to round-off).
#[inline]
fn previous_positions(balls: &Balls, a: usize, b: usize, dt: Real) -> (Vec3, Vec3) {
    (
        balls.pos[a] - balls.vel[a] * dt,
        balls.pos[b] - balls.vel[b] * dt,
    )
}

/// What a contact applied at the end of the previous cycle: its elastic normal force at the
/// overlap `d` along the normal of the balls' previous positions, plus the tangential spring
/// `spring` (world frame), at the contact point of that geometry.
#[inline]
fn applied_before(
    balls: &Balls,
    a: usize,
    b: usize,
    dt: Real,
    (law, radius, state, d): (&ContactModel, Real, &LawState, Real),
    spring: Vec3,
) -> Applied {
    let (xa, xb) = previous_positions(balls, a, b, dt);
    let g = geometry(&xa, &xb, balls.radius[a], balls.radius[b]);
    Applied {
        force: g.normal * law.elastic_normal(d, radius, state) + spring,
        arm_a: g.point - xa,
        arm_b: g.point - xb,
    }
}

/// What a contact applies at the end of this cycle: the elastic normal force of `state` at
/// the geometry `g` plus the tangential spring `spring` (world frame).
#[inline]
fn applied_now(
    balls: &Balls,
    a: usize,
    b: usize,
    (law, state): (&ContactModel, &LawState),
    g: &Geometry,
    spring: Vec3,
) -> Applied {
    Applied {
        force: g.normal * law.elastic_normal(g.overlap, g.radius, state) + spring,
        arm_a: g.point - balls.pos[a],
        arm_b: g.point - balls.pos[b],
    }
}

/// Updates a ball-ball contact: its geometry and, when the balls overlap (or are bonded), its
/// local frame and force, written with the contact point to `out` (zero when inactive).
/// Returns the overlap, what it wrote to `out` (a caller that needs it uses this copy:
/// reading `out` back at once would wait on the stores) and, with `books`, the energy the
/// contact lost and its share of the integration error (`Ledger`).
///
/// Geometry: normal `n = (x_b - x_a)/|x_b - x_a|`, overlap `r_a + r_b - |x_b - x_a|`, contact
/// point `x_a + (r_a - overlap/2) n` (the middle of the overlap). Branch vectors (seed 002):
/// from each centre to the contact point, or `r_a n` and `-r_b n` with `no_ratch`. The
/// relative velocity `(v_b + w_b x b_b) - (v_a + w_a x b_a)` drives the local frame
/// ([`Frame::advance`]); the model sees the tangential increment in local coordinates and its
/// local force is turned back to the world frame.
///
/// `install_bonds`: before the first cycle, a linear-bond contact within its `bond_gap` is
/// bonded. `roll`: the model's rolling resistance, the contact's couple entry, written with
/// the couple on b (world, N m; zero while inactive), and its rolling spring
/// ([`super::Contacts::roll`]; zeroed when the contact forms and when it comes apart).
#[inline]
pub fn update(
    c: &mut Contact,
    mut out: Out,
    frame: Option<&mut Frame>,
    balls: &Balls,
    (law, cohesion): (&ContactModel, Option<&Cohesion>),
    mut roll: Option<(&Rolling, &mut Vec3, &mut Vec3)>,
    (dt, flags, install_bonds, books): (Real, FrameFlags, bool, bool),
) -> Updated {
    if let Some((_, couple, _)) = roll.as_mut() {
        **couple = Vec3::zeros();
    }
    let (a, b) = (c.a as usize, c.b as usize);
    let (ra, rb) = (balls.radius[a], balls.radius[b]);
    let (pa, pb) = (&balls.pos[a], &balls.pos[b]);
    let radius = ra * rb / (ra + rb);
    let m_eff = effective_mass(balls.contact_mass(a), balls.contact_mass(b));
    // (for the books: the contact at the end of the previous cycle, and what it applied)
    let ledger = books.then(|| {
        let d_prev = previous_overlap(balls, a, b, dt);
        let old = if c.active {
            let spring = if law.frame_free() {
                law.elastic_shear(d_prev.max(0.0), radius, &c.state)
            } else {
                frame
                    .as_deref()
                    .map_or(Vec3::zeros(), |f| f.to_world(&c.state.shear_force()))
            };
            applied_before(balls, a, b, dt, (law, radius, &c.state, d_prev), spring)
        } else {
            Applied::default()
        };
        Ledger {
            law,
            radius,
            was: (c.active, d_prev, c.state),
            old,
        }
    });
    let ends = (balls, a, b, dt);
    let close = |ledger: &Option<Ledger>, now, new: &Applied, reported, law_work| {
        ledger
            .as_ref()
            .map_or((0.0, 0.0), |l| l.close(ends, now, new, reported, law_work))
    };
    // how far across a gap an existing contact holds (a JKR neck; else 0)
    let reach = match cohesion {
        Some(k) if c.active => k.reach(Pieces::Spheres(ra, rb)),
        _ => 0.0,
    };
    // Clearly apart (by more than round-off) and not bonded: no geometry is computed (most
    // candidate pairs within the margin, most of the time); an inactive contact's output is
    // already zero, so nothing is written.
    if !install_bonds && !law.holds(&c.state) && reach == 0.0 && clearly_apart(pa, pb, ra, rb) {
        let mut lost = (0.0, 0.0);
        if c.active {
            deactivate(c, &mut out);
            let d = ra + rb - (pb - pa).norm();
            lost = close(&ledger, (false, d, &c.state), &Applied::default(), 0.0, 0.0);
        }
        return Updated {
            overlap: Real::NEG_INFINITY,
            written: [Vec3::zeros(); 2],
            dissipated: lost.0,
            integration: lost.1,
        };
    }
    let g = geometry(pa, pb, ra, rb);
    // touching exactly or apart by round-off (or a JKR neck at its end)
    if released(c, &mut out, (g.overlap, reach), law, install_bonds) {
        let lost = close(
            &ledger,
            (false, g.overlap, &c.state),
            &Applied::default(),
            0.0,
            0.0,
        );
        return Updated {
            overlap: g.overlap,
            written: [Vec3::zeros(); 2],
            dissipated: lost.0,
            integration: lost.1,
        };
    }
    let n = g.normal;
    if let Some((coef, mu, rule)) = law.history(g.overlap, g.radius, m_eff) {
        // Frame-free history models (LIGGGHTS conventions): world vectors, no local frame;
        // branch vectors from each centre to the contact point.
        if !c.active {
            c.state = LawState::default();
            c.active = true;
        }
        let v = middle_velocity(balls, a, b, &g);
        let xi = c.state.shear_displacement();
        let (force, sliding) = history::world_step(
            coef,
            mu,
            rule,
            g.overlap,
            &n,
            &v,
            dt,
            c.state.shear_displacement_mut(),
        );
        c.sliding = sliding;
        let written = out.set([force, g.point]);
        let lost = match &ledger {
            Some(l) => {
                let kt_prev = if l.was.0 {
                    law.history(l.was.1.max(0.0), g.radius, m_eff)
                        .map_or(0.0, |h| h.0.kt)
                } else {
                    0.0
                };
                let dxi = (v - n * v.dot(&n)) * dt;
                let (s_0, s_1) = (-kt_prev * xi, -coef.kt * c.state.shear_displacement());
                let reported = history::spring_loss(
                    kt_prev,
                    &xi,
                    coef.kt,
                    &c.state.shear_displacement(),
                    &dxi,
                );
                let new = applied_now(balls, a, b, (law, &c.state), &g, s_1);
                let law_work = 0.5 * (s_0 + s_1).dot(&dxi);
                close(
                    &ledger,
                    (true, g.overlap, &c.state),
                    &new,
                    reported,
                    law_work,
                )
            }
            None => (0.0, 0.0),
        };
        return Updated {
            overlap: g.overlap,
            written,
            dissipated: lost.0,
            integration: lost.1,
        };
    }
    // NOTE: the model keeps `Contacts::frames` whenever a frame-based model exists, so `frame`
    // is there for such a contact; without it the contact would work in a frame made afresh
    // every cycle (no rotation of its state with the pair).
    let mut spare = None;
    let frame = frame.unwrap_or_else(|| spare.insert(Frame::new(&n, -g.overlap)));
    if !c.active {
        *frame = Frame::new(&n, -g.overlap);
        if let Some((_, _, spring)) = roll.as_mut() {
            **spring = Vec3::zeros();
        }
        c.active = true;
    }
    let (ba, bb) = if flags.no_ratch {
        (n * ra, -n * rb)
    } else {
        (g.point - balls.pos[a], g.point - balls.pos[b])
    };
    let v_rel =
        (balls.vel[b] + balls.spin[b].cross(&bb)) - (balls.vel[a] + balls.spin[a].cross(&ba));
    let step = frame.advance(
        &n,
        &v_rel,
        &balls.spin[a],
        &balls.spin[b],
        -g.overlap,
        dt,
        flags,
    );
    let k = Kinematics::of_step(g.overlap, v_rel.dot(&n), &step, m_eff, g.radius, dt, books);
    let before = c.state.shear_force();
    let mut f = law.force(&k, &mut c.state);
    if let Some(coh) = cohesion {
        f.local.x -= coh.force(Pieces::Spheres(ra, rb), g.overlap);
    }
    // a bond that broke in this cycle across a gap leaves the contact without force (a JKR
    // neck holds it down to `reach`)
    c.active = g.overlap > reach || law.holds(&c.state);
    if let Some((rolling, couple, spring)) = roll {
        if c.active {
            let inertia = 1.0 / (1.0 / rolling_inertia(balls, a) + 1.0 / rolling_inertia(balls, b));
            let twist = 1.0 / (1.0 / twist_inertia(balls, a) + 1.0 / twist_inertia(balls, b));
            let input = rolling_input(law, &k, &c.state, (inertia, twist), &step);
            let (m, _) = rolling.couple(&input, spring);
            *couple = frame.to_world(&m);
        } else {
            *spring = Vec3::zeros();
        }
    }
    let written = out.set(if c.active {
        [frame.to_world(&f.local), g.point]
    } else {
        [Vec3::zeros(); 2]
    });
    let lost = if ledger.is_some() {
        let new = if c.active {
            applied_now(
                balls,
                a,
                b,
                (law, &c.state),
                &g,
                frame.to_world(&c.state.shear_force()),
            )
        } else {
            Applied::default()
        };
        let law_work = 0.5 * (before + c.state.shear_force()).dot(&k.du_t);
        // (a bond that broke across a gap: the model reported what its spring held)
        let (d, i) = close(
            &ledger,
            (c.active, g.overlap, &c.state),
            &new,
            f.dissipated,
            law_work,
        );
        let released = match &ledger {
            Some(l) if l.was.0 && !c.active => law.shear_energy(l.was.1, radius, &l.was.2),
            _ => 0.0,
        };
        (d - released, i)
    } else {
        (0.0, 0.0)
    };
    Updated {
        overlap: g.overlap,
        written,
        dissipated: lost.0,
        integration: lost.1,
    }
}

/// The 2D force-displacement law of a disk-disk contact (seed 004, eqs. 8.14-8.19), derived.
///
/// With `n = (x_b - x_a)/|x_b - x_a|` (direction cosines `n_x, n_y`) and the tangent
/// `q = (-n_y, n_x)` (`n x q = e_z`), the contact point `C = x_a + (r_a - U/2) n` and the
/// relative velocity of b's material point at C with respect to a's,
/// `v = (v_b + w_b e_z x (C - x_b)) - (v_a + w_a e_z x (C - x_a))`, the contact model turns the
/// overlap `U`, `v . n` and the shear increment `(v . q_mid) dt` (tangent at mid-step, from the
/// normals before and after the step: `normal` holds the one of the previous update) into a
/// normal force `F_n` and a shear force `F_s`.
/// The force of a on b is `F_C = F_n n + F_s q`, i.e. `F_Cx = F_n n_x + F_s q_x`,
/// `F_Cy = F_n n_y + F_s q_y` (eqs. 8.14-8.15); b gets `F_C` and a gets `-F_C` (8.16-8.17); the
/// moments about the centres are the z components of `(C - x) x F`:
/// - `M_Bz = (x_C - x_B) F_Cy - (y_C - y_B) F_Cx`,
/// - `M_Az = -[(x_C - x_A) F_Cy - (y_C - y_A) F_Cx]`.
///
/// (The print's eqs. 8.18-8.19 add all four products `(x_C - x_A)(F_Cx + F_Cy) + (y_C - y_A)(F_Cx + F_Cy)`:
/// not a cross product; for a contact on the line of centres the moment must be `∓ r F_s`, which
/// the report's 2D page shows numerically.) The moments are summed by the gather from the
/// force and the contact point, as in 3D; the shear force is kept as a scalar along `q`, which
/// turns with the normal. Returns what [`update`] returns.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn update_2d(
    c: &mut Contact,
    mut out: Out,
    normal: &mut Vec3,
    balls: &Balls,
    law: &ContactModel,
    dt: Real,
    install_bonds: bool,
    books: bool,
) -> Updated {
    let (a, b) = (c.a as usize, c.b as usize);
    let (ra, rb) = (balls.radius[a], balls.radius[b]);
    let (pa, pb) = (&balls.pos[a], &balls.pos[b]);
    let g = geometry(pa, pb, ra, rb);
    let previous = std::mem::replace(normal, g.normal);
    let d_prev = previous_overlap(balls, a, b, dt);
    // the tangent of a normal (the 2D shear force is kept along it)
    let tangent = |n: &Vec3| Vec3::new(-n.y, n.x, 0.0);
    let ledger = books.then(|| {
        let old = if c.active {
            // (the spring along the tangent of the previous cycle's normal)
            let spring = tangent(&previous) * c.state.shear_force().y;
            applied_before(balls, a, b, dt, (law, g.radius, &c.state, d_prev), spring)
        } else {
            Applied::default()
        };
        Ledger {
            law,
            radius: g.radius,
            was: (c.active, d_prev, c.state),
            old,
        }
    });
    let ends = (balls, a, b, dt);
    let close = |now, new: &Applied, reported, law_work| {
        (ledger.as_ref()).map_or((0.0, 0.0), |l| l.close(ends, now, new, reported, law_work))
    };
    let was_active = c.active;
    if released(c, &mut out, (g.overlap, 0.0), law, install_bonds) {
        let lost = close((false, g.overlap, &c.state), &Applied::default(), 0.0, 0.0);
        return Updated {
            overlap: g.overlap,
            written: [Vec3::zeros(); 2],
            dissipated: lost.0,
            integration: lost.1,
        };
    }
    let n = g.normal;
    let q = tangent(&n);
    // tangent at mid-step (the normal of the previous cycle, when the contact was active)
    let q_mid = if c.active {
        tangent(&(n + previous).normalize())
    } else {
        q
    };
    let (wa, wb) = (balls.spin[a].z, balls.spin[b].z);
    let (da, db) = (g.point - pa, g.point - pb);
    // e_z x d = (-d_y, d_x)
    let v = (balls.vel[b] + Vec3::new(-db.y, db.x, 0.0) * wb)
        - (balls.vel[a] + Vec3::new(-da.y, da.x, 0.0) * wa);
    let vs = v.dot(&q_mid);
    if !c.active {
        c.state = LawState::default();
        c.active = true;
    }
    let k = Kinematics {
        overlap: g.overlap,
        overlap_prev: if was_active { d_prev } else { g.overlap },
        vn: v.dot(&n),
        vel_t: Vec3::new(0.0, vs, 0.0),
        du_t: Vec3::new(0.0, vs * dt, 0.0),
        mass: effective_mass(balls.contact_mass(a), balls.contact_mass(b)),
        radius: g.radius,
        dt,
        books,
    };
    let before = c.state.shear_force();
    let f = law.force(&k, &mut c.state);
    c.active = g.overlap > 0.0 || law.holds(&c.state);
    // F_C = F_n n + F_s q (eqs. 8.14-8.15)
    let written = out.set(if c.active {
        [n * f.local.x + q * f.local.y, g.point]
    } else {
        [Vec3::zeros(); 2]
    });
    let lost = if ledger.is_some() {
        let new = if c.active {
            applied_now(
                balls,
                a,
                b,
                (law, &c.state),
                &g,
                q * c.state.shear_force().y,
            )
        } else {
            Applied::default()
        };
        let law_work = 0.5 * (before + c.state.shear_force()).dot(&k.du_t);
        let (d, i) = close(
            (c.active, g.overlap, &c.state),
            &new,
            f.dissipated,
            law_work,
        );
        let released = if was_active && !c.active {
            law.shear_energy(d_prev, g.radius, &before_state(&ledger))
        } else {
            0.0
        };
        (d - released, i)
    } else {
        (0.0, 0.0)
    };
    Updated {
        overlap: g.overlap,
        written,
        dissipated: lost.0,
        integration: lost.1,
    }
}

/// The state a ledger holds of the previous cycle (a default one without books).
fn before_state(ledger: &Option<Ledger>) -> LawState {
    ledger.as_ref().map_or(LawState::default(), |l| l.was.2)
}

/// The force on b of an active history-model contact, found again from its state after its
/// last update ([`crate::law::history::held_force`]): the geometry, coefficients and
/// relative velocity at the balls' current positions and velocities, which are those of
/// that update until the balls move again. Zero for an inactive contact.
pub fn held_force(c: &Contact, balls: &Balls, law: &ContactModel) -> Vec3 {
    if !c.active {
        return Vec3::zeros();
    }
    let (a, b) = (c.a as usize, c.b as usize);
    let (ra, rb) = (balls.radius[a], balls.radius[b]);
    let g = geometry(&balls.pos[a], &balls.pos[b], ra, rb);
    let m_eff = effective_mass(balls.contact_mass(a), balls.contact_mass(b));
    let Some((coef, mu, rule)) = law.history(g.overlap, g.radius, m_eff) else {
        debug_assert!(false, "not a history model");
        return Vec3::zeros();
    };
    let v = middle_velocity(balls, a, b, &g);
    history::held_force(
        coef,
        mu,
        rule,
        g.overlap,
        &g.normal,
        &v,
        &c.state.shear_displacement(),
        c.sliding,
    )
}

/// The rolling inertia of piece `i` about a contact point on its surface, `I + m r^2`, kg m^2
/// with its inertial mass and moment of inertia (infinite for a fixed piece; a pebble's own
/// sphere's: for clumps the rolling dashpot's scale is approximate).
pub(crate) fn rolling_inertia(balls: &Balls, i: usize) -> Real {
    match balls.contact_mass(i) {
        Some(m) => {
            let r = balls.radius[i];
            balls.inertial_inertia[i] + m * r * r
        }
        None => Real::INFINITY,
    }
}

/// The moment of inertia of piece `i` about a line through its centre, kg m^2 (infinite for a
/// fixed piece): what turns about a contact's normal.
pub(crate) fn twist_inertia(balls: &Balls, i: usize) -> Real {
    match balls.contact_mass(i) {
        Some(_) => balls.inertial_inertia[i],
        None => Real::INFINITY,
    }
}

/// What a rolling resistance reads of a contact after its model's force update: the elastic
/// normal force, the stiffnesses now and at the previous overlap, the relative spin and the
/// step's relative rotation.
pub(crate) fn rolling_input(
    law: &ContactModel,
    k: &Kinematics,
    state: &LawState,
    (inertia, twist_inertia): (Real, Real),
    step: &super::FrameStep,
) -> RollingInput {
    let now = law.stiffness(k.overlap.max(0.0), k.radius);
    let before = law.stiffness(k.overlap_prev.max(0.0), k.radius);
    RollingInput {
        normal_force: law.elastic_normal(k.overlap, k.radius, state),
        kn: now.kn,
        ks: now.ks,
        kn_prev: before.kn,
        ks_prev: before.ks,
        radius: k.radius,
        inertia,
        twist_inertia,
        spin: step.spin,
        dphi: step.dphi,
    }
}

/// The history models' relative velocity of ball `b` at the middle of the overlap, with
/// branch vectors from each centre to that point (LIGGGHTS conventions):
/// `v_b - v_a + n x (c_a w_a + c_b w_b)`, `c = r - overlap/2`.
#[inline]
fn middle_velocity(balls: &Balls, a: usize, b: usize, g: &Geometry) -> Vec3 {
    let (ca, cb) = (
        balls.radius[a] - 0.5 * g.overlap,
        balls.radius[b] - 0.5 * g.overlap,
    );
    (balls.vel[b] - balls.vel[a]) + g.normal.cross(&(balls.spin[a] * ca + balls.spin[b] * cb))
}

/// [`update`] of a contact whose model is frame-free.
#[inline]
pub fn update_frame_free(
    c: &mut Contact,
    out: Out,
    balls: &Balls,
    laws: &[ContactModel],
    dt: Real,
) -> Updated {
    let law = &laws[c.law as usize];
    debug_assert!(law.frame_free());
    // (the history models use no frame flags and hold no bond)
    update(
        c,
        out,
        None,
        balls,
        (law, None),
        None,
        (dt, FrameFlags::default(), false, true),
    )
}
