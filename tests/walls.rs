//! Faceted walls (seed 001): the closest point of a facet and its region, mesh validation, the
//! associative logic under rigid motions of the whole scene, inactive sides, wall motion, and
//! walls in the timestep and the stiffness matrix.
//!
//! References: the closest point is judged by its defining property (no point of the triangle
//! is closer; sampled densely), never by a second copy of the algorithm; invariance tests build
//! the same scene a second way (rotated, translated, vertex order permuted); timestep and
//! eigenvalue references are derived by hand below.

use crate::common::{self, Random};
use ballast::body::{side, BallSpec, Resolution, WallMotion, WallSpec};
use ballast::geom::{closest_point, Mesh, MeshError, Region, SNAP};
use ballast::math::{Quat, Real, Vec3};
use ballast::model::Model;
use ballast::rng::SplitMix64;
use ballast::timestep::{Auto, Estimator, Limit, TimestepMode};
use rstest::rstest;

/// The closest point of a triangle lies on the triangle, in the region (face, edge, vertex) it
/// names, and no point sampled on the triangle is closer.
#[test]
fn closest_point_is_on_the_triangle_and_nothing_is_closer() {
    let mut rng = SplitMix64::new(1);
    for _ in 0..300 {
        let v = [rng.vec(1.0), rng.vec(1.0), rng.vec(1.0)];
        let p = rng.vec(2.0);
        let c = closest_point(&p, &v);
        let d = (c.point - p).norm();
        // On the triangle, in the region it names.
        match c.region {
            Region::Vertex(k) => assert_eq!(c.point, v[k as usize]),
            Region::Edge(k) => {
                let (a, b) = (v[k as usize], v[(k as usize + 1) % 3]);
                let off = (c.point - a).cross(&(b - a)).norm() / (b - a).norm();
                assert!(off < 1e-12, "edge point {off} off the edge");
            }
            Region::Face => {
                let w = ballast::geom::barycentric(&c.point, &v);
                assert!(w.iter().all(|&x| x > SNAP), "{w:?}");
                let n = (v[1] - v[0]).cross(&(v[2] - v[0])).normalize();
                assert!(n.dot(&(c.point - v[0])).abs() < 1e-12);
            }
        }
        // No sampled point of the triangle is closer.
        let steps = 60;
        for i in 0..=steps {
            for j in 0..=steps - i {
                let (s, t) = (i as Real / steps as Real, j as Real / steps as Real);
                let q = v[0] + (v[1] - v[0]) * s + (v[2] - v[0]) * t;
                assert!((q - p).norm() >= d - 1e-12, "a sample is closer");
            }
        }
    }
}

#[test]
fn a_point_exactly_over_a_shared_edge_sees_the_edge_from_both_facets() {
    // Two coplanar facets sharing the edge (1, 2), moved by random rigid motions far from the
    // origin: the point above the edge's middle must be on an edge for both (snapped), or the
    // associative logic would find no link between them.
    let mut rng = SplitMix64::new(2);
    let base = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(1.0, 1.0, 0.0),
    ];
    for _ in 0..200 {
        let (q, t) = (rng.rotation(), rng.vec(1e3));
        let v: Vec<Vec3> = base.iter().map(|p| q * p + t).collect();
        let above = q * Vec3::new(0.5, 0.5, 0.3) + t;
        for tri in [[v[0], v[1], v[2]], [v[1], v[3], v[2]]] {
            let c = closest_point(&above, &tri);
            assert!(matches!(c.region, Region::Edge(_)), "{:?}", c.region);
        }
    }
}

/// Vertices given as arrays.
fn points(list: &[[Real; 3]]) -> Vec<Vec3> {
    list.iter().map(|a| Vec3::new(a[0], a[1], a[2])).collect()
}

/// Four corners of a unit square in z = 0.
const SQUARE: [[Real; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [1.0, 1.0, 0.0],
];

/// Each kind of malformed mesh (repeated or collinear vertices, a repeated facet, inconsistent
/// orientation, an edge of three facets, a missing vertex, no facet) is refused, named. A row:
/// vertices, facets, and what the error must say.
#[rstest]
#[case::repeated_vertex_index(
    points(&SQUARE),
    vec![[0, 1, 2], [1, 1, 3]],
    "facet 1: vertices 1 and 1 are the same point"
)]
#[case::repeated_vertex(
    points(&[
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
    ]),
    vec![[1, 3, 2]],
    "facet 0: vertices 1 and 3 are the same point"
)]
#[case::collinear_vertices(
    points(&[[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]]),
    vec![[0, 1, 2]],
    "facet 0: vertices 0, 1 and 2 are collinear"
)]
#[case::repeated_facet(
    points(&SQUARE),
    vec![[0, 1, 2], [2, 0, 1]],
    "facet 1: same vertices as facet 0"
)]
#[case::inconsistent_orientation(
    points(&SQUARE),
    vec![[0, 1, 2], [1, 2, 3]],
    "facets 1 and 0: inconsistent orientation (both run edge 1 -> 2"
)]
#[case::edge_of_three_facets(
    points(&[
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 0.0, 1.0],
    ]),
    vec![[0, 1, 2], [1, 0, 3], [0, 1, 4]],
    "edge 0-1 is shared by 3 facets (0, 1, 2)"
)]
#[case::missing_vertex(
    points(&SQUARE),
    vec![[0, 1, 7]],
    "facet 0: vertex index 7 does not exist"
)]
#[case::no_facet(points(&SQUARE), vec![], "no facet")]
fn malformed_meshes_are_rejected_with_facet_and_vertices(
    #[case] vertices: Vec<Vec3>,
    #[case] facets: Vec<[u32; 3]>,
    #[case] needle: &str,
) {
    let err = Mesh::new(vertices, facets.clone()).expect_err("accepted");
    let msg = err.to_string();
    assert!(msg.contains(needle), "{facets:?}: {msg}");
}

/// A vertex that is not finite is refused, named.
#[test]
fn a_mesh_with_a_vertex_that_is_not_finite_is_rejected() {
    assert!(matches!(
        Mesh::new(
            points(&[[0.0, 0.0, Real::NAN], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
            vec![[0, 1, 2]]
        ),
        Err(MeshError::NotFinite(0))
    ));
}

/// A malformed wall in a case file is refused with the file, the wall, the facet and the
/// vertices named.
#[test]
fn a_bad_wall_in_a_case_file_names_file_wall_facet_and_vertices() {
    let src = |wall: &str| {
        format!(
            "[run]\nsteps = 1\n[timestep]\nmode = \"fixed\"\ndt = 1e-6\n[material.glass]\ndensity = 2500.0\n[[contact]]\nbetween = [\"glass\", \"glass\"]\nmodel = \"linear\"\nkn = 1e5\n[[ball]]\npos = [0.0, 0.0, 0.5]\nradius = 0.01\nmaterial = \"glass\"\n[[wall]]\nname = \"floor\"\nmaterial = \"glass\"\n{wall}\n"
        )
    };
    let err =
        |wall: &str| match ballast::case::parse(&src(wall), std::path::Path::new("cases/x.toml")) {
            Ok(_) => panic!("accepted {wall}"),
            Err(e) => e.to_string(),
        };
    let e = err("vertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]\nfacets = [[0, 1, 2], [3, 3, 1]]");
    assert_eq!(
        e,
        "cases/x.toml: wall \"floor\": facet 1: vertices 3 and 3 are the same point"
    );
    let e = err("vertices = [[0.0, 0.0, 0.0]]\nfacets = [[0, 1, 2]]");
    assert!(
        e.contains("wall[1].facets[0]") && e.contains("vertex indices run from 0 to 0"),
        "{e}"
    );
    let e =
        err("plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 0.0], size = [1.0, 1.0] }");
    assert!(e.contains("wall[1].plane.normal"), "{e}");
    let e = err("box = { min = [0.0, 0.0, 0.0], max = [1.0, 1.0, 1.0] }\ninactive = [ { facet = 12, side = \"below\" } ]");
    assert!(
        e.contains("wall[1].inactive[1].facet") && e.contains("from 0 to 11"),
        "{e}"
    );
    let e = err("plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }\nresolution = \"fast\"");
    assert!(
        e.contains("wall[1].resolution") && e.contains("unknown mode \"fast\""),
        "{e}"
    );
    let e = err("plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }\nresolution = \"full\"\ncutoff_angle_deg = -5.0");
    assert!(
        e.contains("wall[1].cutoff_angle_deg") && e.contains("[0, 180]"),
        "{e}"
    );
    let e = err("mesh = \"nowhere.stl\"");
    assert!(
        e.contains("wall[1].mesh") && e.contains("cannot read"),
        "{e}"
    );
    let e = err("plane = { center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }\nbox = { min = [0.0, 0.0, 0.0], max = [1.0, 1.0, 1.0] }");
    assert!(e.contains("exactly one of"), "{e}");
}

/// A model with one material pair (kn = ks = 1e5, undamped) and no gravity.
fn model(timestep: TimestepMode) -> Model {
    let law = common::linear(1e5, 1e5, 0.5, 0.0, 0.0);
    common::model(
        timestep,
        Vec3::zeros(),
        1e-3,
        common::material("glass", 0.0, 0.0),
        law,
    )
    .0
}

fn wall(name: &str, vertices: Vec<Vec3>, facets: Vec<[u32; 3]>) -> WallSpec {
    common::fixed_wall(name, vertices, facets, Resolution::Reduced, 0.0)
}

/// Active facets and resultant force on ball 0 after priming, for a ball at `ball` (radius
/// 0.01) over the mesh.
fn resolve(vertices: Vec<Vec3>, facets: Vec<[u32; 3]>, ball: Vec3) -> (Vec<u32>, Vec3, usize) {
    let mut m = model(TimestepMode::Fixed(1e-6));
    m.add_ball(&BallSpec::at_rest(1, [ball.x, ball.y, ball.z], 0.01, 0))
        .unwrap();
    m.add_wall(&wall("w", vertices, facets)).unwrap();
    m.prime().unwrap();
    let active = m
        .facet_contacts
        .list
        .iter()
        .filter(|c| c.active)
        .map(|c| c.facet)
        .collect();
    let touching = m.facet_contacts.list.iter().filter(|c| c.touching).count();
    (active, m.balls.force[0], touching)
}

/// A ball over the inside of a facet (on either side, the facet moved by random rigid
/// motions) gets the facet's own unit normal, towards the facet, and the overlap `R - h`,
/// with the height `h` found a second way: the volume of the tetrahedron (ball centre,
/// facet) over half the facet's area, `|det(v1 - v0, v2 - v0, x - v0)| / |(v1 - v0) x (v2 -
/// v0)|`. The wall point is the centre moved by `h` along that normal, and lies on the plane.
#[test]
fn a_ball_over_a_face_gets_the_facets_normal_and_its_height() {
    let mut rng = SplitMix64::new(11);
    let r = 0.01;
    for k in 0..60 {
        let (q, shift) = (rng.rotation(), rng.vec(5.0));
        let base = [
            Vec3::new(0.0, 0.0, 0.0),
            Vec3::new(0.08, 0.01, 0.0),
            Vec3::new(0.02, 0.07, 0.0),
        ];
        let v: Vec<Vec3> = base.iter().map(|p| q * p + shift).collect();
        // a point well inside the face, then up or down by less than the radius
        let (s, t) = (0.2 + 0.3 * rng.next_unit(), 0.2 + 0.3 * rng.next_unit());
        let side = if k % 2 == 0 { 1.0 } else { -1.0 };
        let height = r * (0.2 + 0.7 * rng.next_unit());
        let nf = (v[1] - v[0]).cross(&(v[2] - v[0])).normalize();
        let x = v[0] + (v[1] - v[0]) * s + (v[2] - v[0]) * t + nf * (side * height);
        let mut m = model(TimestepMode::Fixed(1e-6));
        m.add_ball(&BallSpec::at_rest(1, [x.x, x.y, x.z], r, 0))
            .unwrap();
        m.add_wall(&wall("w", v.clone(), vec![[0, 1, 2]])).unwrap();
        m.prime().unwrap();
        let c = &m.facet_contacts.list[0];
        assert_eq!(c.region, Region::Face);
        let e = (v[1] - v[0], v[2] - v[0]);
        let h = e.0.cross(&e.1).dot(&(x - v[0])).abs() / e.0.cross(&e.1).norm();
        assert!(
            (c.overlap - (r - h)).abs() < 1e-15,
            "{} {}",
            c.overlap,
            r - h
        );
        // towards the facet: against the side the centre is on
        let towards = -nf * side;
        assert!(
            (c.normal - towards).norm() < 1e-15,
            "{:?} {towards:?}",
            c.normal
        );
        assert!((c.normal.norm() - 1.0).abs() < 1e-15);
        assert!((c.wall_point - (x + towards * h)).norm() < 1e-14);
        assert!(nf.dot(&(c.wall_point - v[0])).abs() < 1e-14);
        assert!(c.active, "a ball over the face overlapping it touches");
    }
}

/// A 4 x 4 grid of 1 cm cells (32 facets); a ball pressed 1e-4 m into it over a face, over an
/// interior edge or exactly over an interior vertex (shared by six facets). The same scene
/// rotated, translated and with each facet's vertex order cyclically permuted must give one
/// active contact and the same force, kn * overlap along the normal. A row: the spot under the
/// ball, and its place in the order the spots were first tested in (the random motions of a
/// spot are the 25 that follow those of the spots before it, from one generator).
#[rstest]
#[case::over_a_face(Vec3::new(0.0031, 0.0062, 0.0), 0)]
#[case::over_an_edge(Vec3::new(0.005, 0.0, 0.0), 1)]
#[case::over_a_vertex(Vec3::new(0.01, -0.01, 0.0), 2)]
fn figure_4a_one_active_contact_under_any_rigid_motion_and_vertex_order(
    #[case] spot: Vec3,
    #[case] row: usize,
) {
    let (v0, f0) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.04, 0.04], [4, 4]);
    let mut rng = SplitMix64::new(3);
    for _ in 0..25 * row {
        let _ = (rng.rotation(), rng.vec(10.0));
    }
    let ball = spot + Vec3::new(0.0, 0.0, 0.0099);
    let (a0, f_ref, touching) = resolve(v0.clone(), f0.clone(), ball);
    assert_eq!(a0.len(), 1, "{spot:?}: active {a0:?}");
    assert!(touching >= 1);
    assert!(
        (f_ref - Vec3::new(0.0, 0.0, 10.0)).norm() < 1e-9,
        "{f_ref:?}"
    );
    for k in 0..25 {
        let (q, t) = (rng.rotation(), rng.vec(10.0));
        let (v, f) = common::moved(&v0, &f0, &q, &t, k);
        let (a, force, _) = resolve(v, f, q * ball + t);
        assert_eq!(a.len(), 1, "{spot:?}, motion {k}: active {a:?}");
        assert!(
            (force - q * f_ref).norm() < 1e-8 * f_ref.norm(),
            "{force:?}"
        );
    }
}

#[test]
fn the_seeds_walk_through_of_figure_4a_links_and_deactivates_as_described() {
    // Facets a, b, c side by side in a plane; b is a sliver 2 mm wide under the ball, so the
    // ball (pressed 1e-4 m in) also overlaps a and c, whose wall contact points lie on their
    // edges shared with b. The seed: a and c are linked to b, which has the larger overlap, so
    // only b is active.
    let v = vec![
        Vec3::new(-0.02, -0.02, 0.0),
        Vec3::new(0.018, 0.02, 0.0),
        Vec3::new(0.02, -0.02, 0.0),
        Vec3::new(0.022, 0.02, 0.0),
        Vec3::new(0.06, -0.02, 0.0),
    ];
    let f = vec![[0, 2, 1], [1, 2, 3], [2, 4, 3]];
    let ball = Vec3::new(0.0202, 0.0, 0.0099);
    let (active, _, touching) = resolve(v, f, ball);
    // Three facets touch (a and c through their edges shared with b); only b is active.
    assert_eq!(touching, 3);
    assert_eq!(active, vec![1]);
}

/// A wall's inactive side ignores balls on that side only: a ball above a wall inactive above has
/// no contact, the same ball below has one. A row: the inactive sides, the ball's height, and
/// its number of active facet contacts.
#[rstest]
#[case::both_active_above(0, 0.0099, 1)]
#[case::both_active_below(0, -0.0099, 1)]
#[case::inactive_above_ball_above(side::ABOVE, 0.0099, 0)]
#[case::inactive_above_ball_below(side::ABOVE, -0.0099, 1)]
#[case::inactive_below_ball_below(side::BELOW, -0.0099, 0)]
#[case::inactive_both_ball_above(side::BOTH, 0.0099, 0)]
fn inactive_sides_switch_off_contacts_from_that_side_only(
    #[case] bits: u8,
    #[case] z: Real,
    #[case] expect: usize,
) {
    let (v, f) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.1, 0.1], [1, 1]);
    let mut m = model(TimestepMode::Fixed(1e-6));
    m.add_ball(&BallSpec::at_rest(1, [0.01, 0.02, z], 0.01, 0))
        .unwrap();
    let mut w = wall("w", v, f);
    w.inactive = vec![(0, bits), (1, bits)];
    m.add_wall(&w).unwrap();
    m.prime().unwrap();
    let n = m.facet_contacts.active_count();
    assert_eq!(n, expect, "sides {bits}, z {z}");
    if n == 1 {
        // The force pushes the ball away from the plane on its own side.
        assert!(m.balls.force[0].z * z > 0.0);
    }
}

#[test]
fn a_deformable_wall_with_a_rigid_velocity_field_moves_like_the_rigid_wall() {
    // Barycentric interpolation reproduces a linear velocity field exactly, and a rigid field
    // v + w x (x - p) is linear: both motions give the same contact velocities and, over
    // one step, the same vertices to first order in dt.
    let (v, f) = ballast::geom::plane(Vec3::new(0.0, 0.0, 0.0), Vec3::z(), [0.1, 0.1], [2, 2]);
    let (vel, spin, pivot) = (
        Vec3::new(0.1, -0.2, 0.05),
        Vec3::new(0.3, 0.1, -0.4),
        Vec3::new(0.01, 0.02, 0.0),
    );
    let mut rigid = wall("r", v.clone(), f.clone());
    rigid.motion = WallMotion::Rigid { vel, spin };
    rigid.pivot = pivot;
    let mut deform = wall("d", v.clone(), f.clone());
    deform.motion = WallMotion::Deformable {
        vertex_vel: v.iter().map(|x| vel + spin.cross(&(x - pivot))).collect(),
    };
    deform.pivot = pivot;
    let mut m = model(TimestepMode::Fixed(1e-6));
    m.add_wall(&rigid).unwrap();
    m.add_wall(&deform).unwrap();
    let p = Vec3::new(0.013, -0.021, 0.0);
    let (a, b) = (m.walls[0].velocity_at(0, &p), m.walls[1].velocity_at(0, &p));
    assert!((a - b).norm() < 1e-15, "{a:?} {b:?}");
    assert!((m.walls[0].max_speed() - m.walls[1].max_speed()).abs() < 1e-15);
}

/// A wall turning at a constant spin ω has turned by ω t after t: its rotation and a vertex
/// carried by R(ω t).
#[test]
fn a_rigid_wall_turns_by_the_spin_times_the_time() {
    let (v, f) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.1, 0.1], [1, 1]);
    let mut w = wall("w", v.clone(), f);
    let spin = Vec3::new(0.0, 0.0, 2.0);
    w.motion = WallMotion::Rigid {
        vel: Vec3::zeros(),
        spin,
    };
    let mut m = model(TimestepMode::Fixed(1e-3));
    m.add_ball(&BallSpec::at_rest(1, [1.0, 1.0, 1.0], 0.01, 0))
        .unwrap();
    m.add_wall(&w).unwrap();
    for _ in 0..1000 {
        m.cycle().unwrap();
    }
    // 2 rad/s for 1 s: 2 rad about z; a vertex at (0.05, 0.05) is carried to R_z(2) of itself.
    let rot = m.walls[0].rotation.scaled_axis();
    assert!((rot - Vec3::new(0.0, 0.0, 2.0)).norm() < 1e-12, "{rot:?}");
    let expect = Quat::from_scaled_axis(Vec3::new(0.0, 0.0, 2.0)) * v[3];
    assert!((m.walls[0].mesh.vertices[3] - expect).norm() < 1e-14);
    // (The seed's quaternion q(1, w dt), normalized, turns by 2 atan(|w| dt) per step: 4.0 rad
    // here, twice the rotation the wall must make.)
}

#[test]
fn a_moving_wall_sets_the_automatic_timestep_by_its_fastest_vertex() {
    // A plate spinning at 10 rad/s about z through its centre: its corners (0.05, 0.05) move
    // at 10 * 0.0707 = 0.707 m/s; with translation 0.3 m/s along x the fastest corner moves at
    // |(0.3, 0, 0) + 10 z x (0.05, 0.05, 0)| = |(-0.2, 0.5, 0)|.
    let (v, f) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.1, 0.1], [1, 1]);
    let mut w = wall("w", v, f);
    w.motion = WallMotion::Rigid {
        vel: Vec3::new(0.3, 0.0, 0.0),
        spin: Vec3::new(0.0, 0.0, 10.0),
    };
    let eps = 1e-5;
    let mut m = model(TimestepMode::Auto(Auto {
        safety: 0.8,
        estimator: Estimator::Diagonal,
        kinematic_eps: Some(eps),
        cap: None,
        every: 1,
    }));
    m.add_ball(&BallSpec::at_rest(1, [1.0, 1.0, 1.0], 0.01, 0))
        .unwrap();
    m.add_wall(&w).unwrap();
    m.cycle().unwrap();
    let vmax: Real = [
        Vec3::new(0.05, 0.05, 0.0),
        Vec3::new(-0.05, 0.05, 0.0),
        Vec3::new(0.05, -0.05, 0.0),
        Vec3::new(-0.05, -0.05, 0.0),
    ]
    .iter()
    .map(|x| (Vec3::new(0.3, 0.0, 0.0) + Vec3::new(0.0, 0.0, 10.0).cross(x)).norm())
    .fold(0.0, Real::max);
    assert_eq!(m.dt_limit, Limit::WallKinematic { wall: 0 });
    assert!(
        (m.last_dt - eps / vmax).abs() < 1e-15 * m.last_dt,
        "{} vs {}",
        m.last_dt,
        eps / vmax
    );
}

#[test]
fn a_ball_on_a_wall_has_the_hand_derived_critical_timestep() {
    // A ball (mass m, inertia I = 2/5 m R^2) pressed U = 1e-4 m into a plane, kn = ks = k,
    // contact point r = R - U/2 below its centre (the middle of the overlap). K over
    // (x, y, z, rx, ry, rz): z alone (k), and two (x, ry) and (y, rx) pairs coupled by the
    // lever arm r: [[k, k r], [k r, k r^2]] per pair. With masses (m, I) the pair's nonzero
    // omega^2 is k (1/m + r^2/I) = (k/m)(1 + 2.5 r^2/R^2), above k/m. Exact critical timestep:
    // 2 / sqrt of that.
    let (v, f) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.1, 0.1], [3, 3]);
    let mut m = model(TimestepMode::Fixed(1e-6));
    m.add_ball(&BallSpec::at_rest(1, [0.0123, 0.0071, 0.0099], 0.01, 0))
        .unwrap();
    m.add_wall(&wall("w", v, f)).unwrap();
    m.prime().unwrap();
    let k = ballast::stiffness::GlobalStiffness::assemble(&m);
    assert_eq!(k.blocks.len(), 1, "one active contact");
    let exact = k.exact_critical();
    let mass = m.balls.mass[0];
    let r: Real = 0.01 - 0.5e-4;
    let expect = 2.0 / (1e5 / mass * (1.0 + 2.5 * r * r / 1e-4)).sqrt();
    assert!(
        (exact.dt / expect - 1.0).abs() < 1e-10,
        "{} vs {expect}",
        exact.dt
    );
}

#[test]
fn stl_and_obj_files_give_the_same_wall_as_the_box_key() {
    // A closed box written as ASCII STL, binary STL and OBJ: each loads into 12 facets on 8
    // welded vertices with every edge shared by two facets, the same as `box = {...}`.
    let (v, f) = ballast::geom::closed_box(Vec3::zeros(), Vec3::new(1.0, 2.0, 3.0), 1);
    let dir = std::env::temp_dir().join(format!("ballast_mesh_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ascii = String::from("solid box\n");
    let mut binary = vec![0u8; 80];
    binary.extend_from_slice(&(f.len() as u32).to_le_bytes());
    let mut obj = String::new();
    for p in &v {
        obj += &format!("v {} {} {}\n", p.x, p.y, p.z);
    }
    for t in &f {
        ascii += " facet normal 0 0 0\n  outer loop\n";
        binary.extend_from_slice(&[0u8; 12]);
        for &i in t {
            let p = v[i as usize];
            ascii += &format!("   vertex {} {} {}\n", p.x, p.y, p.z);
            for c in [p.x, p.y, p.z] {
                binary.extend_from_slice(&(c as f32).to_le_bytes());
            }
        }
        binary.extend_from_slice(&[0u8; 2]);
        ascii += "  endloop\n endfacet\n";
        obj += &format!("f {} {} {}\n", t[0] + 1, t[1] + 1, t[2] + 1);
    }
    ascii += "endsolid box\n";
    std::fs::write(dir.join("a.stl"), ascii).unwrap();
    std::fs::write(dir.join("b.stl"), binary).unwrap();
    std::fs::write(dir.join("c.obj"), obj).unwrap();
    for (file, key) in [
        ("a.stl", "mesh = \"a.stl\""),
        ("b.stl", "mesh = \"b.stl\""),
        ("c.obj", "mesh = \"c.obj\""),
        (
            "-",
            "box = { min = [0.0, 0.0, 0.0], max = [1.0, 2.0, 3.0] }",
        ),
    ] {
        let src = format!(
            "[run]\nsteps = 1\n[timestep]\nmode = \"fixed\"\ndt = 1e-6\n[material.glass]\ndensity = 2500.0\n[[contact]]\nbetween = [\"glass\", \"glass\"]\nmodel = \"linear\"\nkn = 1e5\n[[ball]]\npos = [0.5, 0.5, 0.5]\nradius = 0.01\nmaterial = \"glass\"\n[[wall]]\nname = \"box\"\nmaterial = \"glass\"\n{key}\n"
        );
        let case = ballast::case::parse(&src, &dir.join("case.toml"))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let w = &case.walls[0];
        assert_eq!((w.facets.len(), w.vertices.len()), (12, 8), "{file}");
        let mesh = Mesh::new(w.vertices.clone(), w.facets.clone()).unwrap();
        assert!(
            mesh.edge_neighbour
                .iter()
                .flatten()
                .all(|&g| g != ballast::geom::NONE),
            "{file}: open edge"
        );
        // Inward normals: the box centre is above every facet.
        let centre = Vec3::new(0.5, 1.0, 1.5);
        for fct in 0..mesh.len() {
            assert!(
                mesh.normal(fct).dot(&(centre - mesh.corners(fct)[0])) > 0.0,
                "{file}: facet {fct}"
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn vtk_files_hold_every_ball_and_facet_and_the_collection_lists_them() {
    // Counts in the XML against the model: 2 balls; a wall of 4 x 4 x 2 = 32 facets on 25
    // vertices; two snapshots, each a .vtu, the wall's .vtp and the contacts' .vtp, listed with
    // their times in run.pvd (ASCII here: tests/../python/tests reads the binary files).
    let (v, f) = ballast::geom::plane(Vec3::zeros(), Vec3::z(), [0.1, 0.1], [4, 4]);
    let mut m = model(TimestepMode::Fixed(1e-4));
    m.add_ball(&BallSpec::at_rest(1, [0.0, 0.0, 0.5], 0.01, 0))
        .unwrap();
    m.add_ball(&BallSpec::at_rest(7, [0.1, 0.0, 0.5], 0.02, 0))
        .unwrap();
    m.add_wall(&wall("floor", v, f)).unwrap();
    let dir = std::env::temp_dir().join(format!("ballast_vtk_{}", std::process::id()));
    let mut w =
        ballast::output::VtkWriter::with_format(&dir, ballast::output::VtkFormat::Ascii).unwrap();
    m.prime().unwrap();
    w.write(&m).unwrap();
    for _ in 0..10 {
        m.cycle().unwrap();
    }
    w.write(&m).unwrap();
    w.finish().unwrap();
    let vtu = std::fs::read_to_string(dir.join("balls_000000010.vtu")).unwrap();
    assert!(vtu.contains("NumberOfPoints=\"2\" NumberOfCells=\"2\""));
    assert!(
        vtu.contains("Name=\"radius\" format=\"ascii\">1e-2 2e-2 </DataArray>"),
        "{vtu}"
    );
    assert!(vtu.contains("Name=\"id\" format=\"ascii\">1 7 </DataArray>"));
    let vtp = std::fs::read_to_string(dir.join("wall_floor_000000010.vtp")).unwrap();
    assert!(vtp.contains("NumberOfPoints=\"25\" NumberOfPolys=\"32\""));
    let pvd = std::fs::read_to_string(dir.join("run.pvd")).unwrap();
    assert_eq!(pvd.matches("<DataSet ").count(), 6);
    // Ten cycles of 1e-4 s (the time is summed, so it may differ from 1e-3 in the last digit).
    let line = pvd
        .lines()
        .find(|l| l.contains("wall_floor_000000010.vtp"))
        .unwrap();
    let t: Real = line.split('"').nth(1).unwrap().parse().unwrap();
    assert!(
        (t - 1e-3).abs() < 1e-15 && line.contains("part=\"1\""),
        "{line}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
