//! The automatic timestep's diagonal stiffness terms of ball-ball contacts
//! ([`crate::springs::ball_diagonal`] with the foresight, no clump) for [`LANES`] contacts
//! at once: their balls are copied into lane arrays and the arithmetic runs lane by lane in
//! loops the compiler turns into vector instructions (square roots, quotients and the Hertz
//! foresight's power, [`crate::math::two_fifths_power`], eight at a time; the power only for
//! a batch where some lane takes it), then each contact's twelve terms are added to its
//! balls' sums in list order.
//!
//! Every lane performs the operations of the one-contact path in its order (the geometry of
//! [`crate::contact::ball_ball::geometry`], the approach and effective mass of
//! [`crate::springs::ball_stiffness`], [`crate::law::ContactModel::foreseen_overlap`], the
//! model's tangent stiffness, [`crate::springs::contact_diagonal_3d`]); its branches become selects
//! between both sides, each computed as the one-contact path would. So the sums are the same
//! bits (test `the_lanes_give_the_one_contact_terms`).

use super::masses::Masses;
use crate::contact::Contact;
use crate::law::lanes::LANES;
use crate::law::ContactModel;
use crate::math::Real;
use crate::springs::Springs;

type Lane = [Real; LANES];
type Lane3 = [Lane; 3];

/// What the diagonal terms need of a contact model: the Hertz models' moduli (their tangent
/// stiffnesses `2 E* sqrt(R* d)`, `8 G* sqrt(R* d)` at the foreseen overlap), or the
/// constant stiffnesses of the others ([`ContactModel::stiffness`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct LaneLaw {
    hertz: bool,
    e_star: Real,
    kn: Real,
    ks: Real,
    kn_rot: Real,
    ks_rot: Real,
}

impl LaneLaw {
    fn of(law: &ContactModel) -> Self {
        let pair = match law {
            ContactModel::Hertz(m) => Some(m.pair),
            ContactModel::HertzHistory(m) => Some(m.pair),
            _ => None,
        };
        match pair {
            // (`kn`, `ks`: the factors 2 E* and 8 G*, exact)
            Some(p) => LaneLaw {
                hertz: true,
                e_star: p.e_star,
                kn: 2.0 * p.e_star,
                ks: 8.0 * p.g_star,
                kn_rot: 0.0,
                ks_rot: 0.0,
            },
            None => {
                let s = law.stiffness(0.0, 0.0);
                LaneLaw {
                    hertz: false,
                    e_star: 0.0,
                    kn: s.kn,
                    ks: s.ks,
                    kn_rot: s.kn_rot,
                    ks_rot: s.ks_rot,
                }
            }
        }
    }
}

/// A batch's inputs, one lane per contact.
#[derive(Default)]
struct Input {
    pa: Lane3,
    pb: Lane3,
    ra: Lane,
    rb: Lane,
    /// `v_a - v_b`.
    dv: Lane3,
    /// The balls' contact masses.
    masses: Masses,
    hertz: [bool; LANES],
    e_star: Lane,
    kn: Lane,
    ks: Lane,
    kn_rot: Lane,
    ks_rot: Lane,
}

impl Input {
    #[inline(always)]
    fn load(&mut self, l: usize, c: &Contact, springs: &Springs, law: &LaneLaw) {
        let l = l & (LANES - 1);
        let balls = springs.balls;
        let (a, b) = (c.a as usize, c.b as usize);
        let (pb, vb) = balls.partner_motion(a, b);
        let (pa, pb) = (&balls.pos[a], &pb);
        // (the subtraction of [`crate::springs::ball_stiffness`], component by component)
        let dv = balls.vel[a] - vb;
        for k in 0..3 {
            self.pa[k][l] = pa[k];
            self.pb[k][l] = pb[k];
            self.dv[k][l] = dv[k];
        }
        self.ra[l] = balls.radius[a];
        self.rb[l] = balls.radius[b];
        self.masses.load(l, balls, a, b);
        self.hertz[l] = law.hertz;
        self.e_star[l] = law.e_star;
        self.kn[l] = law.kn;
        self.ks[l] = law.ks;
        self.kn_rot[l] = law.kn_rot;
        self.ks_rot[l] = law.ks_rot;
    }

    /// The twelve diagonal terms of every lane (ball a's six DOFs, then ball b's) into `out`
    /// (lane by lane): three loops over the lanes with no branch inside, the foresight's power
    /// ([`crate::math::two_fifths_power`]) only when a lane takes it.
    #[inline(always)]
    fn terms(&self, out: &mut [[Real; 12]; LANES]) {
        let mut p = Prep::default();
        for l in 0..LANES {
            // geometry: unit normal a -> b (+z for coincident centres), overlap, radius, point
            let d = [0, 1, 2].map(|k| self.pb[k][l] - self.pa[k][l]);
            let dist = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
            let apart = dist > 0.0;
            let n = [
                if apart { d[0] / dist } else { 0.0 },
                if apart { d[1] / dist } else { 0.0 },
                if apart { d[2] / dist } else { 1.0 },
            ];
            let (ra, rb) = (self.ra[l], self.rb[l]);
            let overlap = ra + rb - dist;
            let radius = ra * rb / (ra + rb);
            // the approach and the effective mass
            let dv = [0, 1, 2].map(|k| self.dv[k][l]);
            let approach = dv[0] * n[0] + dv[1] * n[1] + dv[2] * n[2];
            let m_eff = self.masses.effective(l);
            // the Hertz foresight (`&`, not `&&`: no branch)
            let d0 = overlap.max(0.0);
            let c = 16.0 * self.e_star[l] * radius.sqrt();
            let closes =
                (approach > 0.0) & m_eff.is_finite() & (m_eff > 0.0) & (c > 0.0) & c.is_finite();
            let held = d0 * d0 * d0.sqrt();
            let gained = 15.0 * m_eff * approach * approach / c;
            let slow = gained < 0.01 * held;
            for k in 0..3 {
                p.n[k][l] = n[k];
            }
            p.overlap[l] = overlap;
            p.radius[l] = radius;
            p.d0[l] = d0;
            p.held[l] = held;
            p.gained[l] = gained;
            p.foresee[l] = self.hertz[l] & closes;
            p.slow[l] = slow;
        }
        // (a lane takes the power when it foresees and the approach is not slow)
        let mut power = false;
        for l in 0..LANES {
            power |= p.foresee[l] & !p.slow[l];
        }
        if power {
            for l in 0..LANES {
                p.fast[l] =
                    crate::math::two_fifths_power(p.held[l] + p.gained[l]).max(p.overlap[l]);
            }
        }
        for l in 0..LANES {
            let n = [0, 1, 2].map(|k| p.n[k][l]);
            let (overlap, radius, d0) = (p.overlap[l], p.radius[l], p.d0[l]);
            let to_point = self.ra[l] - 0.5 * overlap;
            let point = [0, 1, 2].map(|k| self.pa[k][l] + n[k] * to_point);
            let arm_a = [0, 1, 2].map(|k| point[k] - self.pa[k][l]);
            let arm_b = [0, 1, 2].map(|k| point[k] - self.pb[k][l]);
            let slow = d0 * (1.0 + 0.4 * p.gained[l] / p.held[l]);
            let foreseen = if p.slow[l] { slow } else { p.fast[l] };
            let at = if p.foresee[l] { foreseen } else { overlap };
            // the stiffnesses
            let hertz = self.hertz[l];
            let a = (radius * at.max(0.0)).sqrt();
            let kn = if hertz { self.kn[l] * a } else { self.kn[l] };
            let ks = if hertz { self.ks[l] * a } else { self.ks[l] };
            let (kn_rot, ks_rot) = (self.kn_rot[l], self.ks_rot[l]);
            // [`crate::springs::contact_diagonal_3d`]
            let dkn = kn - ks;
            let dkr = kn_rot - ks_rot;
            for i in 0..3 {
                let t = ks + dkn * n[i] * n[i];
                out[l][i] = t;
                out[l][6 + i] = t;
                let rot = ks_rot + dkr * n[i] * n[i];
                for (slot, r) in [(3, &arm_a), (9, &arm_b)] {
                    let (w2, nw) = match i {
                        0 => (r[2] * r[2] + r[1] * r[1], n[1] * r[2] + n[2] * -r[1]),
                        1 => (r[2] * r[2] + r[0] * r[0], n[0] * -r[2] + n[2] * r[0]),
                        _ => (r[1] * r[1] + r[0] * r[0], n[0] * r[1] + n[1] * -r[0]),
                    };
                    out[l][slot + i] = ks * w2 + dkn * nw * nw + rot;
                }
            }
        }
    }
}

/// The lanes' geometry and foresight between [`Input::terms`]' loops.
#[derive(Default)]
struct Prep {
    n: Lane3,
    overlap: Lane,
    radius: Lane,
    d0: Lane,
    held: Lane,
    gained: Lane,
    fast: Lane,
    /// A Hertz model and a closing pair: the stiffness at the foreseen overlap.
    foresee: [bool; LANES],
    /// The foresight's short cut for a slow approach.
    slow: [bool; LANES],
}

/// [`crate::springs::add_ball_diagonals`]' sums, [`LANES`] contacts at a time (module
/// documentation): the terms of every contact of `list`, foreseen, added to those of its balls
/// that have a row in `diagonal` (the balls from `first` on; ball a unless `incoming`), in
/// list order. With a rolling resistance (whose stiffness adds to the bending terms) the
/// contacts take the one-contact path.
pub(crate) fn add_ball_diagonals_lanes(
    springs: &Springs,
    list: &[Contact],
    diagonal: &mut [[Real; 6]],
    first: usize,
    incoming: bool,
) {
    if springs.rolling.iter().any(Option::is_some) {
        crate::springs::add_ball_diagonals(springs, list, diagonal, first, incoming);
        return;
    }
    let mut input = Input::default();
    let mut out = [[0.0; 12]; LANES];
    let mut sums = Sums {
        diagonal,
        first,
        incoming,
        held: usize::MAX,
        row: [0.0; 6],
    };
    // (the last contact model's parameters)
    let mut cached: Option<(u16, LaneLaw)> = None;
    let mut law_of = |c: &Contact| match cached {
        Some((k, law)) if k == c.law => law,
        _ => {
            let law = LaneLaw::of(&springs.laws[c.law as usize]);
            cached = Some((c.law, law));
            law
        }
    };
    for batch in list.chunks(LANES) {
        // (a short batch repeats its first contact in the spare lanes, whose terms are not used)
        for l in 0..LANES {
            let c = &batch[if l < batch.len() { l } else { 0 }];
            input.load(l, c, springs, &law_of(c));
        }
        input.terms(&mut out);
        for (c, terms) in batch.iter().zip(&out) {
            sums.add(c, terms);
        }
    }
    sums.put_back();
}

/// The rows a range sums into, and ball a's row held while consecutive contacts share their
/// ball a (the list is sorted by it, and no contact of that run has it as ball b): the same
/// additions in the same order as in memory, without a store and a load between two of them.
struct Sums<'a> {
    diagonal: &'a mut [[Real; 6]],
    first: usize,
    incoming: bool,
    /// The ball whose row is held (`usize::MAX`: none).
    held: usize,
    row: [Real; 6],
}

impl Sums<'_> {
    /// Adds the terms of contact `c` (ball a's six, then ball b's).
    #[inline(always)]
    fn add(&mut self, c: &Contact, terms: &[Real; 12]) {
        let (a, b) = (c.a as usize, c.b as usize);
        if !self.incoming {
            if a != self.held {
                self.put_back();
                self.held = a;
                self.row = self.diagonal[a - self.first];
            }
            for k in 0..6 {
                self.row[k] += terms[k];
            }
        }
        if let Some(row) = self.diagonal.get_mut(b.wrapping_sub(self.first)) {
            for k in 0..6 {
                row[k] += terms[6 + k];
            }
        }
    }

    /// Writes the held row back.
    #[inline(always)]
    fn put_back(&mut self) {
        if self.held != usize::MAX {
            self.diagonal[self.held - self.first] = self.row;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::add_ball_diagonals_lanes;
    use crate::body::{dof, BallSpec, Balls};
    use crate::contact::Contact;
    use crate::law::{ContactModel, FrictionLimit, Hertz, HertzHistory, HertzPair, Linear};
    use crate::math::{Real, Vec3};
    use crate::rng::SplitMix64;
    use crate::springs::Springs;

    /// The lanes against [`crate::springs::add_ball_diagonals`], the one-contact path
    /// (geometry, foreseen stiffness, [`crate::springs::contact_diagonal_3d`]), on 3,000
    /// random contacts among 400 balls of radii 0.5-2 mm: Hertz-Mindlin, Hertz history and a
    /// linear law with rotational springs mixed in one list; pairs touching, apart, closing,
    /// separating, at rest, slowly enough for the foresight's short cut; balls with every translation fixed (no contact mass) or one DOF;
    /// two with coincident centres. The same sums, bit for bit, with and without ball a's
    /// rows (a range's incoming contacts) and with rows for part of the balls only.
    #[test]
    fn the_lanes_give_the_one_contact_terms() {
        let mut rng = SplitMix64::new(11);
        let mut u = move || (rng.next_u64() >> 11) as Real / (1u64 << 53) as Real;
        let mut balls = Balls::default();
        for i in 0..400 {
            let fixed = match i % 17 {
                0 => dof::TRANSLATION,
                1 => 1,
                _ => 0,
            };
            let still = i % 5 == 0;
            // (a 6 mm cube: neighbours touch, overlap or stand apart)
            let pos = [6e-3 * u(), 6e-3 * u(), 6e-3 * u()];
            let mut spec = BallSpec::at_rest(i as u64, pos, 5e-4 + 1.5e-3 * u(), 0);
            // (fast ones, and slow ones whose touching contacts take the foresight's short
            // cut for a slow approach)
            let speed = if i % 3 == 0 { 1.0 } else { 1e-4 };
            if !still {
                spec.vel = Vec3::new(u() - 0.5, u() - 0.5, u() - 0.5) * speed;
            }
            spec.fixed = fixed;
            balls.push(&spec, 2500.0);
        }
        balls.pos[1] = balls.pos[0];
        let pair = HertzPair::of(5e6, 0.3, 7e7, 0.25);
        let laws = vec![
            ContactModel::Hertz(Hertz::new(pair, 0.5, 0.5, true)),
            ContactModel::HertzHistory(HertzHistory::new(pair, 0.5, 0.5)),
            ContactModel::Linear(Linear {
                kn: 1e5,
                ks: 4e4,
                kn_rot: 2e-3,
                ks_rot: 5e-3,
                friction: 0.5,
                damp_n: 0.1,
                damp_s: 0.1,
                limit: FrictionLimit::Total,
            }),
        ];
        let mut list: Vec<Contact> = (0..3000)
            .map(|k| {
                let a = (u() * 399.0) as u32;
                let b = a + 1 + (u() * (399 - a) as Real) as u32;
                Contact::new(a, b, (k % 7 % 3) as u16)
            })
            .collect();
        list.push(Contact::new(0, 1, 1));
        list.sort_by_key(|c| (c.a, c.b));
        let springs = Springs {
            balls: &balls,
            laws: &laws,
            rolling: &[None, None, None],
            walls: &[],
        };
        let touching = (list.iter())
            .filter(|c| {
                let g = crate::contact::ball_ball::geometry(
                    &balls.pos[c.a as usize],
                    &balls.pos[c.b as usize],
                    balls.radius[c.a as usize],
                    balls.radius[c.b as usize],
                );
                g.overlap > 0.0
            })
            .count();
        assert!(
            touching > 300 && touching < 2700,
            "{touching} of 3001 touch"
        );
        for (first, rows, incoming) in [(0, 400, false), (0, 400, true), (150, 100, true)] {
            let sums = |lanes: bool| {
                let mut d = vec![[0.0; 6]; rows];
                let part: Vec<Contact> = (list.iter())
                    .filter(|c| {
                        incoming || (c.a as usize) >= first && (c.a as usize) < first + rows
                    })
                    .cloned()
                    .collect();
                if lanes {
                    add_ball_diagonals_lanes(&springs, &part, &mut d, first, incoming);
                } else {
                    crate::springs::add_ball_diagonals(&springs, &part, &mut d, first, incoming);
                }
                d.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>()
            };
            let one = sums(false);
            assert!(one.iter().filter(|&&x| x != 0).count() > 100);
            assert!(
                one == sums(true),
                "rows from {first}, {rows}, incoming {incoming}"
            );
        }
    }
}
