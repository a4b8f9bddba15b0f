//! What a rank sends the ranks that hold copies ("ghosts") of its balls after each stage that
//! changes them ([`Rank`], module `ranks`): their motion after each law of motion (and under
//! timestep scaling their fictitious masses), their forces after a force pass when energy
//! books are kept.

use super::ranks::Rank;
use crate::body::Balls;
use crate::math::{Real, Vec3};
use crate::model::Model;
use crate::timestep::TimestepMode;

impl Rank<'_> {
    /// Overwrites every ghost's position, velocity and spin with its owner's; under timestep
    /// scaling its inertial mass and moment of inertia too (its rank's partial stiffness
    /// sums made others, and its contacts read them).
    pub(super) fn forward(&mut self, model: &mut Model) {
        let motion = |b: &Balls, i: usize| {
            let (p, u, w) = (b.pos[i], b.vel[i], b.spin[i]);
            [p.x, p.y, p.z, u.x, u.y, u.z, w.x, w.y, w.z]
        };
        let set_motion = |b: &mut Balls, i: usize, x: &[Real]| {
            b.pos[i] = Vec3::new(x[0], x[1], x[2]);
            b.vel[i] = Vec3::new(x[3], x[4], x[5]);
            b.spin[i] = Vec3::new(x[6], x[7], x[8]);
        };
        let b = &mut model.balls;
        if !matches!(model.settings.timestep, TimestepMode::Scaled(_)) {
            self.copy_to_ghosts(b, motion, |b, i, x: [Real; 9]| set_motion(b, i, &x));
            return;
        }
        self.copy_to_ghosts(
            b,
            |b, i| {
                let m = motion(b, i);
                let masses = [b.inertial_mass[i], b.inertial_inertia[i]];
                std::array::from_fn::<Real, 11, _>(|k| if k < 9 { m[k] } else { masses[k - 9] })
            },
            |b, i, x: [Real; 11]| {
                set_motion(b, i, &x);
                (b.inertial_mass[i], b.inertial_inertia[i]) = (x[9], x[10]);
            },
        );
    }

    /// Overwrites every ghost's force and moment with its owner's (after a force pass: the
    /// energy books read the accelerations of both balls of a contact).
    pub(super) fn forward_loads(&mut self, model: &mut Model) {
        self.copy_to_ghosts(
            &mut model.balls,
            |b, i| {
                let (f, m) = (b.force[i], b.moment[i]);
                [f.x, f.y, f.z, m.x, m.y, m.z]
            },
            |b, i, x: [Real; 6]| {
                b.force[i] = Vec3::new(x[0], x[1], x[2]);
                b.moment[i] = Vec3::new(x[3], x[4], x[5]);
            },
        );
    }

    /// Sends each rank the values `read` of this rank's balls it holds copies of, and `write`s
    /// what the others send into those copies (one exchange).
    fn copy_to_ghosts<const N: usize>(
        &mut self,
        b: &mut Balls,
        read: impl Fn(&Balls, usize) -> [Real; N],
        write: impl Fn(&mut Balls, usize, [Real; N]),
    ) {
        let out = (self.send.iter())
            .map(|list| {
                let mut v: Vec<u8> = Vec::with_capacity(8 * N * list.len());
                for &i in list {
                    for x in read(b, i as usize) {
                        v.extend(x.to_le_bytes());
                    }
                }
                v
            })
            .collect();
        let got = self.swap(out);
        for (list, bytes) in self.recv.iter().zip(&got) {
            // (the bytes of a buffer are not aligned for f64: read one by one)
            for (&i, ball) in list.iter().zip(bytes.chunks_exact(8 * N)) {
                let x: [Real; N] = std::array::from_fn(|k| {
                    Real::from_le_bytes(ball[8 * k..8 * k + 8].try_into().unwrap_or([0; 8]))
                });
                write(b, i as usize, x);
            }
        }
    }
}
