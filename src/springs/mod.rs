//! The stiffness a contact presents to the automatic timestep, and its terms in the diagonal of
//! the stiffness matrix, per ball: what the estimate of seed 000, eq. 11 sums over the contacts
//! ([`crate::stiffness`] holds the estimates, the matrices and the exact critical timestep;
//! the force pass, src/force/ranges.rs, takes these sums for the next cycle while each
//! contact's balls are in cache). [`Springs`] borrows what it needs of a model field by field;
//! `crate::force::lanes::springs` computes the ball-ball terms eight contacts at a time.

use crate::contact::ball_ball::geometry;
use crate::contact::Contact;
use crate::law::ContactStiffness;
use crate::math::{Real, Vec3};

/// What the stiffness of a contact needs of a model, borrowed field by field (the force
/// pass holds the contact lists mutably while it sums the automatic timestep's diagonal,
/// [`crate::stiffness`]): the balls, the contact models and their rolling
/// resistance, the walls.
#[derive(Clone, Copy)]
pub(crate) struct Springs<'a> {
    pub balls: &'a crate::body::Balls,
    pub laws: &'a [crate::law::ContactModel],
    pub rolling: &'a [Option<crate::law::Rolling>],
    pub walls: &'a [crate::body::Wall],
}

impl Springs<'_> {
    /// [`crate::model::Model::contact_stiffness`].
    #[inline]
    pub(crate) fn contact_stiffness(
        &self,
        law: u16,
        overlap: Real,
        radius: Real,
    ) -> ContactStiffness {
        let mut s = self.laws[law as usize].stiffness(overlap, radius);
        if let Some(Some(r)) = self.rolling.get(law as usize) {
            s.ks_rot += r.stiffness(s.kn, s.ks, radius);
            s.kn_rot += r.twisting_stiffness(s.kn, s.ks, radius);
        }
        s
    }

    /// [`crate::model::Model::foreseen_stiffness`].
    #[inline]
    pub(crate) fn foreseen_stiffness(
        &self,
        law: u16,
        overlap: Real,
        radius: Real,
        m_eff: Real,
        approach: Real,
    ) -> ContactStiffness {
        let d = self.laws[law as usize].foreseen_overlap(overlap, radius, m_eff, approach);
        self.contact_stiffness(law, d, radius)
    }
}

/// The stiffness of a ball-ball contact for the stiffness terms (`crate::stiffness`'s `terms`): at its overlap for the stiffness
/// matrix; for the automatic timestep (`foresee`, with the contacts about to touch), at the
/// overlap it can reach as the balls close ([`crate::model::Model::foreseen_stiffness`]; their centres'
/// velocities, not their spins).
#[inline]
pub(crate) fn ball_stiffness(
    springs: &Springs,
    law: u16,
    a: usize,
    b: usize,
    g: &crate::contact::ball_ball::Geometry,
    foresee: bool,
) -> ContactStiffness {
    if !foresee {
        return springs.contact_stiffness(law, g.overlap, g.radius);
    }
    let balls = springs.balls;
    let approach = (balls.vel[a] - balls.partner_motion(a, b).1).dot(&g.normal);
    let m_eff =
        crate::contact::ball_ball::effective_mass(balls.contact_mass(a), balls.contact_mass(b));
    springs.foreseen_stiffness(law, g.overlap, g.radius, m_eff, approach)
}

/// The stiffness of a ball-facet contact (`crate::stiffness`'s `wall_terms`), as [`ball_stiffness`]: the
/// approach is the ball's velocity against the wall's at the contact point.
#[inline]
pub(crate) fn wall_stiffness(
    springs: &Springs,
    c: &crate::contact::FacetContact,
    foresee: bool,
) -> ContactStiffness {
    let b = c.ball as usize;
    let radius = springs.balls.radius[b];
    if !foresee {
        return springs.contact_stiffness(c.law, c.overlap, radius);
    }
    let wall = springs.walls[c.wall as usize].velocity_at(c.facet as usize, &c.point);
    let approach = (springs.balls.vel[b] - wall).dot(&c.normal);
    let m_eff = springs.balls.contact_mass(b).unwrap_or(Real::INFINITY);
    springs.foreseen_stiffness(c.law, c.overlap, radius, m_eff, approach)
}

/// The contacts of one ball-wall interaction (`run`, its contacts) that carry stiffness
/// (`crate::stiffness`'s `wall_terms`): the active ones, or (with `with_inactive`, none being active) the one with
/// the largest overlap, the one the associative logic would make active first (the last of
/// equal ones).
#[inline]
pub(crate) fn counted_contacts<'a>(
    run: &'a [crate::contact::FacetContact],
    it: &crate::contact::WallInteraction,
    with_inactive: bool,
) -> impl Iterator<Item = &'a crate::contact::FacetContact> + 'a {
    // Without an active contact, the one with the largest overlap (index in the run).
    let first = (it.active == 0 && with_inactive)
        .then(|| (0..run.len()).max_by(|&x, &y| run[x].overlap.total_cmp(&run[y].overlap)))
        .flatten();
    run.iter()
        .enumerate()
        .filter(move |&(k, c)| c.active || first == Some(k))
        .map(|(_, c)| c)
}

/// The diagonal of the 12x12 contact matrix without forming it: `diag(S)`, then
/// `(R_a x e_i)^T S (R_a x e_i) + (S_r)_ii`, `diag(S)`, and the same with `R_b`. Used by the
/// automatic timestep (seed 000, eq. 11) where it runs for every contact in every cycle.
///
/// `w = R x e_i` has one zero component and two of `R`'s, and `|w|^2` and `n . w` are written
/// with those two only: `(r_z, -r_y)`, `(-r_z, r_x)`, `(r_y, -r_x)` for `i = x, y, z`. For a
/// finite `R` these are the bits of the full products (each term that multiplies a zero is a
/// zero, and adding a zero to a number leaves it; where all terms are zero the square is +0
/// either way): the test `the_diagonal_is_the_matrix_diagonal` (src/stiffness/contact.rs) compares them with
/// the matrix.
#[inline]
pub fn contact_diagonal_3d(s: &ContactStiffness, n: &Vec3, r_a: &Vec3, r_b: &Vec3) -> [Real; 12] {
    let mut out = [0.0; 12];
    let dkn = s.kn - s.ks;
    let dkr = s.kn_rot - s.ks_rot;
    for i in 0..3 {
        let t = s.ks + dkn * n[i] * n[i];
        out[i] = t;
        out[6 + i] = t;
        let rot = s.ks_rot + dkr * n[i] * n[i];
        for (slot, r) in [(3, r_a), (9, r_b)] {
            // (|w|^2 in nalgebra's order: the zero component's square first or last)
            let (w2, nw) = match i {
                0 => (r.z * r.z + r.y * r.y, n.y * r.z + n.z * -r.y),
                1 => (r.z * r.z + r.x * r.x, n.x * -r.z + n.z * r.x),
                _ => (r.y * r.y + r.x * r.x, n.x * r.y + n.y * -r.x),
            };
            out[slot + i] = s.ks * w2 + dkn * nw * nw + rot;
        }
    }
    out
}

/// The diagonal terms of ball-ball contact `c` (no clump: each ball its own body, its centre
/// the lever arms' origin): `K_ii` of ball a's six DOFs, then ball b's
/// ([`contact_diagonal_3d`]; the stiffness as [`ball_stiffness`] gives it, `foresee` for the
/// automatic timestep).
#[inline]
pub(crate) fn ball_diagonal(springs: &Springs, c: &Contact, foresee: bool) -> [Real; 12] {
    let (a, b) = (c.a as usize, c.b as usize);
    let balls = springs.balls;
    let (pa, pb) = (&balls.pos[a], &balls.partner(a, b));
    let g = geometry(pa, pb, balls.radius[a], balls.radius[b]);
    let s = ball_stiffness(springs, c.law, a, b, &g, foresee);
    contact_diagonal_3d(&s, &g.normal, &(g.point - pa), &(g.point - pb))
}

/// Adds the diagonal terms of every ball-ball contact of `list` (all of them: the automatic
/// timestep's count, the contacts about to touch included and foreseen, [`ball_stiffness`])
/// to those of its balls that have a row in `diagonal` (the balls from `first` on): ball a
/// unless `incoming` (the list holds copies of contacts whose ball a lies before `first`,
/// [`crate::contact::Partition`]), ball b when it lies in the rows. Taken in list order by a
/// range of the force pass, each ball gets the terms of [`DofStiffness::compute`] in its
/// order: the same sums, bit for bit.
pub(crate) fn add_ball_diagonals(
    springs: &Springs,
    list: &[Contact],
    diagonal: &mut [[Real; 6]],
    first: usize,
    incoming: bool,
) {
    for c in list {
        let d = ball_diagonal(springs, c, true);
        let (a, b) = (c.a as usize, c.b as usize);
        if !incoming {
            let row = &mut diagonal[a - first];
            for k in 0..6 {
                row[k] += d[k];
            }
        }
        if let Some(row) = diagonal.get_mut(b.wrapping_sub(first)) {
            for k in 0..6 {
                row[k] += d[6 + k];
            }
        }
    }
}

/// Adds to the rows of `diagonal` (the balls from `first` on; no clump) the diagonal terms of
/// the ball-facet contacts of interaction `it` (its contacts `run`) that carry stiffness
/// ([`counted_contacts`], [`wall_stiffness`]).
#[inline]
pub(crate) fn add_interaction_diagonals(
    springs: &Springs,
    run: &[crate::contact::FacetContact],
    it: &crate::contact::WallInteraction,
    diagonal: &mut [[Real; 6]],
    first: usize,
    with_inactive: bool,
) {
    for c in counted_contacts(run, it, with_inactive) {
        let b = c.ball as usize;
        let s = wall_stiffness(springs, c, with_inactive);
        let r_b = c.point - springs.balls.pos[b];
        let d = contact_diagonal_3d(&s, &c.normal, &crate::math::Vec3::zeros(), &r_b);
        let row = &mut diagonal[b - first];
        for k in 0..6 {
            row[k] += d[6 + k];
        }
    }
}
