//! Geometry and force of a ball-ball contact.

use super::ledger::{applied_before, applied_now, Applied, Ledger};
pub(crate) use super::sphere_pair::effective_mass;
pub use super::sphere_pair::{clearly_apart, geometry, Geometry};
use super::{Contact, Frame, FrameFlags};
use crate::body::Balls;
use crate::law::{
    history, Cohesion, ContactModel, Kinematics, LawState, Pieces, Rolling, RollingInput,
};
use crate::math::{Real, Vec3};

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
    pub(crate) fn set(&mut self, [force, point]: [Vec3; 2]) -> [Vec3; 2] {
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
    let (pb, vb) = balls.partner_motion(a, b);
    let d = (pb - vb * dt) - (balls.pos[a] - balls.vel[a] * dt);
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
    let (pb, vb) = balls.partner_motion(a, b);
    let (pa, pb) = (&balls.pos[a], &pb);
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
        (g.point - pa, g.point - pb)
    };
    let v_rel = (vb + balls.spin[b].cross(&bb)) - (balls.vel[a] + balls.spin[a].cross(&ba));
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
    let g = geometry(&balls.pos[a], &balls.partner(a, b), ra, rb);
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
    let vb = balls.partner_motion(a, b).1;
    (vb - balls.vel[a]) + g.normal.cross(&(balls.spin[a] * ca + balls.spin[b] * cb))
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
