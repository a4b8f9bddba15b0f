//! Geometry and force of a contact between two 2D disks (`dim = 2`): the ball-ball update in
//! the plane, its normal kept beside the contact instead of a frame.

use super::ball_ball::{effective_mass, geometry, previous_overlap, released, Out, Updated};
use super::ledger::{applied_before, applied_now, before_state, Applied, Ledger};
use super::Contact;
use crate::body::Balls;
use crate::law::{ContactModel, Kinematics, LawState};
use crate::math::{Real, Vec3};

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
/// turns with the normal. Returns what [`super::ball_ball::update`] returns.
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
    let (pb, vb) = balls.partner_motion(a, b);
    let (pa, pb) = (&balls.pos[a], &pb);
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
    let v =
        (vb + Vec3::new(-db.y, db.x, 0.0) * wb) - (balls.vel[a] + Vec3::new(-da.y, da.x, 0.0) * wa);
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
