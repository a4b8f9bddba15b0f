//! The 2D disk mode at the model level: disk mass properties, out-of-plane input refused,
//! walls that do not cross the plane refused (naming the facet), clumps refused.

use crate::common::{fixed_wall, linear, material, model};
use ballast::body::{BallSpec, ClumpSpec, PebbleSpec, Resolution};
use ballast::math::{Vec3, PI};
use ballast::timestep::TimestepMode;

fn planar() -> (ballast::model::Model, usize) {
    let (mut m, k) = model(
        TimestepMode::Fixed(1e-5),
        Vec3::zeros(),
        1e-4,
        material("glass", 0.0, 0.0),
        linear(1e5, 1e5, 0.5, 0.0, 0.0),
    );
    m.set_planar();
    (m, k)
}

/// In 2D a disk has the mass ρπr² of unit thickness, the inertia m r²/2, and only u, v and θ_z
/// free.
#[test]
fn a_disk_has_unit_thickness_mass_and_three_dofs() {
    let (mut m, k) = planar();
    let i = m
        .add_ball(&BallSpec::at_rest(1, [0.0, 0.0, 0.0], 0.01, k))
        .unwrap();
    let mass = 2500.0 * PI * 0.01 * 0.01;
    assert!((m.balls.mass[i] - mass).abs() < 1e-15 * mass);
    assert!((m.balls.inertia[i] - 0.5 * mass * 1e-4).abs() < 1e-15 * mass * 1e-4);
    use ballast::body::dof;
    assert_eq!(m.balls.fixed[i], dof::Z | dof::RX | dof::RY);
}

/// In 2D a ball off the plane, a spin out of it, or a clump pebble off it is refused, named.
#[test]
fn out_of_plane_input_is_refused() {
    let (mut m, k) = planar();
    let mut b = BallSpec::at_rest(1, [0.0, 0.0, 0.001], 0.01, k);
    let e = m.add_ball(&b).unwrap_err().to_string();
    assert!(e.contains("ball 1") && e.contains("plane"), "{e}");
    b.pos = Vec3::zeros();
    b.spin = Vec3::new(1.0, 0.0, 0.0);
    assert!(m.add_ball(&b).is_err());
    let e = m
        .add_clump(&ClumpSpec {
            id: 2,
            pos: Vec3::zeros(),
            material: k,
            pebbles: vec![PebbleSpec {
                offset: Vec3::zeros(),
                radius: 0.01,
            }],
            vel: Vec3::zeros(),
            spin: Vec3::zeros(),
            applied_force: Vec3::zeros(),
            fixed: 0,
            mass: None,
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("clump 2") && e.contains("3D only"), "{e}");
}

/// In 2D a wall facet must stand perpendicular to the plane and cross it: a horizontal facet or
/// one above the plane is refused with the facet named.
#[test]
fn a_2d_wall_must_be_perpendicular_to_the_plane_and_cross_it() {
    let v = |x: f64, y: f64, z: f64| Vec3::new(x, y, z);
    // a vertical facet crossing z = 0: accepted
    let (mut m, _) = planar();
    let ok = fixed_wall(
        "ok",
        vec![v(-1.0, 0.0, -1.0), v(1.0, 0.0, -1.0), v(0.0, 0.0, 1.0)],
        vec![[0, 1, 2]],
        Resolution::Reduced,
        0.0,
    );
    m.add_wall(&ok).unwrap();
    // a horizontal facet, and a vertical one entirely above the plane: refused, facet named
    for (name, verts) in [
        (
            "flat",
            vec![v(-1.0, -1.0, 0.0), v(1.0, -1.0, 0.0), v(0.0, 1.0, 0.0)],
        ),
        (
            "above",
            vec![v(-1.0, 0.0, 0.5), v(1.0, 0.0, 0.5), v(0.0, 0.0, 1.0)],
        ),
    ] {
        let w = fixed_wall(name, verts, vec![[0, 1, 2]], Resolution::Reduced, 0.0);
        let e = m.add_wall(&w).unwrap_err().to_string();
        assert!(e.contains(name) && e.contains("facet 0"), "{e}");
    }
}
