//! Bad input gets one line naming the file, the key and the reason; never a panic.

use ballast::case::parse;
use rstest::rstest;
use std::path::Path;

const GOOD: &str = r#"
[run]
steps = 10
[timestep]
mode = "fixed"
dt = 1e-6
[material.glass]
density = 2500.0
[[contact]]
between = ["glass", "glass"]
model = "linear"
kn = 1e5
[[ball]]
pos = [0.0, 0.0, 0.0]
radius = 0.01
material = "glass"
[[ball]]
pos = [0.03, 0.0, 0.0]
radius = 0.01
material = "glass"
"#;

/// `msg` is one line that starts with the file and names `needle`.
fn one_line_naming(what: &str, msg: &str, needle: &str) {
    assert!(msg.starts_with("cases/bad.toml: "), "{what}: {msg}");
    assert!(
        msg.contains(needle),
        "{what}: {msg:?} does not name {needle:?}"
    );
    assert!(!msg.contains('\n'), "{what}: not one line: {msg:?}");
}

fn error_of(src: &str) -> String {
    match parse(src, Path::new("cases/bad.toml")) {
        Ok(_) => panic!("accepted:\n{src}"),
        Err(e) => e.to_string(),
    }
}

/// The reference case the error tests mutate parses, with its two balls in file order (so each
/// error below comes from the one change made to it).
#[test]
fn the_reference_case_is_valid() {
    let case = parse(GOOD, Path::new("cases/good.toml")).unwrap();
    assert_eq!(case.name, "good");
    assert_eq!(case.balls.len(), 2);
    assert_eq!(case.balls[1].id, 2);
}

/// Each one-line change that makes the case malformed is refused with a message naming the
/// file, the key and the reason. A row: what is wrong, the text of the reference case that is
/// replaced, its replacement, and what the message must name.
#[rstest]
#[case::unknown_key(
    "unknown key",
    "radius = 0.01\nmaterial",
    "radius = 0.01\ncolour = 1\nmaterial",
    "colour"
)]
#[case::missing_key(
    "missing key",
    "radius = 0.01\nmaterial = \"glass\"\n[[ball]]",
    "material = \"glass\"\n[[ball]]",
    "radius"
)]
#[case::wrong_type("wrong type", "steps = 10", "steps = \"ten\"", "steps")]
#[case::negative_radius(
    "negative radius",
    "pos = [0.03, 0.0, 0.0]\nradius = 0.01",
    "pos = [0.03, 0.0, 0.0]\nradius = -0.01",
    "ball[2].radius"
)]
#[case::zero_density(
    "zero density",
    "density = 2500.0",
    "density = 0.0",
    "material.glass.density"
)]
#[case::unknown_material(
    "unknown material",
    "pos = [0.03, 0.0, 0.0]\nradius = 0.01\nmaterial = \"glass\"",
    "pos = [0.03, 0.0, 0.0]\nradius = 0.01\nmaterial = \"steel\"",
    "steel"
)]
#[case::nan(
    "NaN",
    "pos = [0.03, 0.0, 0.0]",
    "pos = [nan, 0.0, 0.0]",
    "ball[2].pos"
)]
#[case::infinite_stiffness("infinite stiffness", "kn = 1e5", "kn = inf", "contact[1].kn")]
#[case::both_run_lengths("both run lengths", "steps = 10", "steps = 10\nduration = 1.0", "run")]
#[case::no_run_length("no run length", "steps = 10", "", "run")]
#[case::unknown_mode("unknown mode", "mode = \"fixed\"", "mode = \"fast\"", "timestep.mode")]
#[case::loading_steps_below_one(
    "loading steps below one",
    "mode = \"fixed\"\ndt = 1e-6",
    "mode = \"model\"\nloading_steps = 0.5",
    "timestep.loading_steps"
)]
#[case::restitution_out_of_range(
    "restitution out of range",
    "model = \"linear\"",
    "model = \"linear-dashpot\"\nrestitution = 1.5",
    "contact[1].restitution"
)]
#[case::hertz_without_youngs_modulus(
    "hertz without Young's modulus",
    "model = \"linear\"\nkn = 1e5",
    "model = \"hertz\"",
    "material.glass.young"
)]
#[case::unloading_softer_than_loading(
    "unloading softer than loading",
    "model = \"linear\"",
    "model = \"hysteretic\"\nk_unload = 10.0",
    "contact[1].k_unload"
)]
#[case::unknown_frame_approximation(
    "unknown frame approximation",
    "[material.glass]",
    "[frame]\napproximations = [\"guess\"]\n[material.glass]",
    "frame.approximations[1]"
)]
#[case::key_of_another_timestep_mode(
    "key of another timestep mode",
    "mode = \"fixed\"\ndt = 1e-6",
    "mode = \"fixed\"\ndt = 1e-6\nsafety = 0.5",
    "timestep.safety"
)]
#[case::safety_above_one(
    "safety above one",
    "mode = \"fixed\"\ndt = 1e-6",
    "mode = \"auto\"\nsafety = 1.5",
    "timestep.safety"
)]
#[case::unknown_estimator(
    "unknown estimator",
    "mode = \"fixed\"\ndt = 1e-6",
    "mode = \"auto\"\nestimator = \"guess\"",
    "timestep.estimator"
)]
#[case::no_cycle_between_choices_of_the_step(
    "no cycle between choices of the step",
    "mode = \"fixed\"\ndt = 1e-6",
    "mode = \"auto\"\nevery = 0",
    "timestep.every"
)]
#[case::every_for_the_fixed_step(
    "every for the fixed step",
    "mode = \"fixed\"\ndt = 1e-6",
    "mode = \"fixed\"\ndt = 1e-6\nevery = 10",
    "timestep.every"
)]
#[case::eps_without_the_constraint(
    "eps without the constraint",
    "mode = \"fixed\"\ndt = 1e-6",
    "mode = \"scaled\"\nkinematic = false\nkinematic_eps = 1e-5",
    "timestep.kinematic_eps"
)]
#[case::unknown_model(
    "unknown model",
    "model = \"linear\"",
    "model = \"springy\"",
    "contact[1].model"
)]
#[case::key_of_another_model(
    "key of another model",
    "kn = 1e5",
    "kn = 1e5\nrestitution = 0.5",
    "contact[1].restitution"
)]
#[case::damping_ratio_too_large(
    "damping ratio too large",
    "kn = 1e5",
    "kn = 1e5\ndamp_n = 1.5",
    "contact[1].damp_n"
)]
#[case::unknown_dof(
    "unknown DOF",
    "material = \"glass\"\n[[ball]]",
    "material = \"glass\"\nfix = [\"w\"]\n[[ball]]",
    "ball[1].fix"
)]
#[case::walls_not_yet(
    "walls not yet",
    "[[ball]]\npos = [0.0",
    "[[wall]]\nname = \"w\"\n[[ball]]\npos = [0.0",
    "wall"
)]
#[case::positions_3d_in_a_2d_case(
    "3D positions in a 2D case",
    "[run]",
    "dim = 2\n[run]",
    "ball[1].pos: 3 components: give 2"
)]
#[case::dim_4("dim 4", "[run]", "dim = 4\n[run]", "dim")]
#[case::decomposition_of_two(
    "a decomposition of two numbers",
    "[run]",
    "[parallel]\ndecomposition = [2, 1]\n[run]",
    "parallel.decomposition: 2 numbers; give three"
)]
#[case::rebalance_of_one(
    "cuts that would move at every rebuild",
    "[run]",
    "[parallel]\nrebalance = 1.0\n[run]",
    "parallel.rebalance: 1: the most balls a rank owns over the mean is at least 1"
)]
#[case::rebalance_nan(
    "a threshold that is no number",
    "[run]",
    "[parallel]\nrebalance = nan\n[run]",
    "parallel.rebalance: NaN"
)]
#[case::decomposition_of_zero(
    "no rank along an axis",
    "[run]",
    "[parallel]\ndecomposition = [2, 0, 1]\n[run]",
    "parallel.decomposition: 0 ranks along an axis"
)]
#[case::decomposition_too_large(
    "too many ranks along an axis",
    "[run]",
    "[parallel]\ndecomposition = [2000, 1, 1]\n[run]",
    "each must be 1 to 1024"
)]
#[case::parallel_unknown_key(
    "an unknown key of [parallel]",
    "[run]",
    "[parallel]\nranks = 2\n[run]",
    "ranks"
)]
#[case::unknown_rolling_kind(
    "unknown rolling kind",
    "kn = 1e5",
    "kn = 1e5\nrolling = { kind = \"roll\", coefficient = 0.1 }",
    "contact[1].rolling.kind"
)]
#[case::negative_rolling_coefficient(
    "negative rolling coefficient",
    "kn = 1e5",
    "kn = 1e5\nrolling = { kind = \"cdt\", coefficient = -0.1 }",
    "contact[1].rolling.coefficient"
)]
#[case::a_cdt_has_no_stiffness(
    "a CDT has no stiffness",
    "kn = 1e5",
    "kn = 1e5\nrolling = { kind = \"cdt\", coefficient = 0.1, kr = 1.0 }",
    "contact[1].rolling.kr"
)]
#[case::rolling_damping_ratio_of_1(
    "rolling damping ratio of 1",
    "kn = 1e5",
    "kn = 1e5\nrolling = { kind = \"epsd\", coefficient = 0.1, damping = 1.0 }",
    "contact[1].rolling.damping"
)]
#[case::zero_pfc_rolling_stiffness(
    "zero PFC rolling stiffness",
    "kn = 1e5",
    "kn = 1e5\nrolling = { kind = \"pfc\", coefficient = 0.1, kr = 0.0 }",
    "contact[1].rolling.kr"
)]
#[case::unknown_rolling_key(
    "unknown rolling key",
    "kn = 1e5",
    "kn = 1e5\nrolling = { kind = \"pfc\", coefficient = 0.1, twist = 1.0 }",
    "twist"
)]
#[case::twisting_without_rolling(
    "twisting without rolling",
    "kn = 1e5",
    "kn = 1e5\ntwisting = { coefficient = 0.05 }",
    "contact[1].twisting: twisting resistance takes its kind"
)]
#[case::negative_twisting_coefficient(
    "negative twisting coefficient",
    "kn = 1e5",
    "kn = 1e5\nrolling = { kind = \"cdt\", coefficient = 0.1 }\ntwisting = { coefficient = -1.0 }",
    "contact[1].twisting.coefficient"
)]
#[case::jkr_on_a_model_other_than_hertz(
    "JKR on a model other than Hertz",
    "kn = 1e5",
    "kn = 1e5\ncohesion = { kind = \"jkr\", surface_energy = 0.05 }",
    "contact[1].cohesion.kind"
)]
#[case::a_jkr_neck_longer_than_the_margin(
    "a JKR neck longer than the margin",
    "[run]\nsteps = 10",
    "[run]\nsteps = 10\nmargin = 1e-7\n[material.rubber]\ndensity = 1000.0\nyoung = 1e7\n\
             poisson = 0.25\n[[contact]]\nbetween = [\"rubber\", \"rubber\"]\nmodel = \"hertz\"\n\
             cohesion = { kind = \"jkr\", surface_energy = 0.1 }",
    "run.margin: 1e-7 m: a JKR neck"
)]
#[case::dmt_without_its_surface_energy(
    "DMT without its surface energy",
    "kn = 1e5",
    "kn = 1e5\ncohesion = { kind = \"dmt\" }",
    "contact[1].cohesion.surface_energy"
)]
#[case::sjkr_with_a_surface_energy(
    "SJKR with a surface energy",
    "kn = 1e5",
    "kn = 1e5\ncohesion = { kind = \"sjkr\", energy_density = 1e5, surface_energy = 0.1 }",
    "contact[1].cohesion.surface_energy"
)]
#[case::negative_energy_density(
    "negative energy density",
    "kn = 1e5",
    "kn = 1e5\ncohesion = { kind = \"sjkr\", energy_density = -1e5 }",
    "contact[1].cohesion.energy_density"
)]
#[case::cohesion_on_a_frame_free_model(
    "cohesion on a frame-free model",
    "model = \"linear\"\nkn = 1e5",
    "model = \"hooke-history\"\nkn = 1e5\ncohesion = { kind = \"dmt\", surface_energy = 0.05 }",
    "contact[1].cohesion.kind"
)]
#[case::rolling_on_a_frame_free_model("rolling on a frame-free model",
            "model = \"linear\"\nkn = 1e5",
            "model = \"hooke-history\"\nkn = 1e5\nks = 1e5\nrolling = { kind = \"cdt\", coefficient = 0.1 }",
            "contact[1].rolling.kind")]
fn each_malformed_case_names_file_key_and_reason(
    #[case] what: &str,
    #[case] from: &str,
    #[case] to: &str,
    #[case] needle: &str,
) {
    assert!(
        GOOD.contains(from),
        "{what}: test setup: {from:?} not in the reference case"
    );
    let bad = GOOD.replacen(from, to, 1);
    let msg = error_of(&bad);
    one_line_naming(what, &msg, needle);
}

/// Two materials that touch need a `[[contact]]` naming them: a case without one is refused,
/// naming the pair.
#[test]
fn a_pair_of_materials_without_contact_model_is_refused() {
    let src = GOOD.replace(
        "between = [\"glass\", \"glass\"]",
        "between = [\"glass\", \"steel\"]",
    ) + "[material.steel]\ndensity = 7800.0\n";
    let msg = error_of(&src);
    assert!(
        msg.contains("no contact model for materials \"glass\" and \"glass\""),
        "{msg}"
    );
}

/// A `[[generate]]` block whose balls would overlap a ball given by hand is refused.
#[test]
fn generated_balls_may_not_overlap_given_ones() {
    let src = format!("{GOOD}\n[[generate]]\nkind = \"lattice\"\ncount = 64\nmin = [-0.05, -0.05, -0.05]\nmax = [0.05, 0.05, 0.05]\nradius = [0.01, 0.01]\nmaterial = \"glass\"\nseed = 3\n");
    let msg = error_of(&src);
    assert!(
        msg.contains("generate") && msg.contains("overlaps"),
        "{msg}"
    );
}

/// A lattice asked for more balls than its box holds is refused with the number of sites there is.
#[test]
fn a_lattice_that_does_not_fit_is_refused_with_the_site_count() {
    let src = format!("{GOOD}\n[[generate]]\nkind = \"lattice\"\ncount = 100\nmin = [1.0, 1.0, 1.0]\nmax = [1.1, 1.1, 1.1]\nradius = [0.01, 0.01]\nmaterial = \"glass\"\n");
    let msg = error_of(&src);
    assert!(
        msg.contains("generate[1].count") && msg.contains("64 lattice sites"),
        "{msg}"
    );
}

/// Each check kind's keys are validated when the case is read (misspelt keys, unknown balls,
/// series that are not a column): the error names the key. A row: the check's keys, and what
/// the message must name.
#[rstest]
#[case::misspelt_key(
    "kind = \"harmonic\"\nseries = \"ball/1/pos.x\"\nperod = 1.0\ntolerance = 0.1",
    "perod"
)]
#[case::unknown_ball(
    "kind = \"harmonic\"\nseries = \"ball/9/pos.x\"\nperiod = 1.0\ntolerance = 0.1",
    "no ball with id 9"
)]
#[case::series_that_is_not_a_column(
    "kind = \"harmonic\"\nseries = \"ball/1/pos\"\nperiod = 1.0\ntolerance = 0.1",
    "name a column"
)]
#[case::final_value_without_its_rule(
    "kind = \"final_value\"\nseries = \"dt\"\nexpected = 1.0",
    "exactly one of"
)]
#[case::restitution_against_no_wall(
    "kind = \"restitution\"\nball = 1\nother = \"floor\"\ntolerance = 0.1",
    "there is no wall named \"floor\""
)]
#[case::unknown_kind("kind = \"sparkle\"", "check[1].kind")]
fn checks_are_validated_by_kind(#[case] check: &str, #[case] needle: &str) {
    let with = |check: &str| format!("{GOOD}\n[[check]]\n{check}\n");
    let msg = error_of(&with(check));
    assert!(
        msg.contains("check[1]") && msg.contains(needle),
        "{check}: {msg}"
    );
}

/// An output series that names no quantity is refused with its index in `output.series`.
#[test]
fn unknown_series_are_refused() {
    let src = format!("{GOOD}\n[output]\nseries = [\"ball/1/pos\", \"ball/1/colour\"]\n");
    let msg = error_of(&src);
    assert!(
        msg.contains("output.series[2]") && msg.contains("colour"),
        "{msg}"
    );
}

/// `[run] sort_every` renumbers the balls: accepted with a frame-based contact model (the
/// reference case's linear model), refused in 2D and with a series that follows one ball by
/// its index.
#[test]
fn renumbering_is_refused_where_it_cannot_work() {
    let sorted = GOOD.replace("steps = 10", "steps = 10\nsort_every = 100");
    if let Err(e) = parse(&sorted, Path::new("cases/good.toml")) {
        panic!("{e}");
    }
    let planar = format!("dim = 2\n{sorted}")
        .replace("[0.0, 0.0, 0.0]", "[0.0, 0.0]")
        .replace("[0.03, 0.0, 0.0]", "[0.03, 0.0]");
    let msg = error_of(&planar);
    assert!(
        msg.contains("cases/bad.toml") && msg.contains("run.sort_every") && msg.contains("3D"),
        "{msg}"
    );
    if let Err(e) = parse(&planar.replace("sort_every = 100", ""), Path::new("x.toml")) {
        panic!("the 2D case without sorting: {e}");
    }
    let msg = error_of(&format!(
        "{sorted}\n[output]\nseries = [\"energy/kinetic\", \"ball/2/pos\"]\n"
    ));
    assert!(
        msg.contains("run.sort_every")
            && msg.contains("output.series[2]")
            && msg.contains("ball/2/pos"),
        "{msg}"
    );
}

/// `[run] sort_order` names one of two orders, and only with `sort_every`.
#[test]
fn a_sort_order_needs_a_known_name_and_sort_every() {
    let history = GOOD.replace(
        "model = \"linear\"\nkn = 1e5",
        "model = \"hooke-history\"\nkn = 1e5\nks = 1e5\nfriction = 0.5",
    );
    for order in ["rows", "morton"] {
        let src = history.replace(
            "steps = 10",
            &format!("steps = 10\nsort_every = 100\nsort_order = \"{order}\""),
        );
        if let Err(e) = parse(&src, Path::new("cases/good.toml")) {
            panic!("{order}: {e}");
        }
    }
    let msg = error_of(&history.replace(
        "steps = 10",
        "steps = 10\nsort_every = 100\nsort_order = \"hilbert\"",
    ));
    assert!(
        msg.contains("cases/bad.toml")
            && msg.contains("run.sort_order")
            && msg.contains("hilbert")
            && msg.contains("\"rows\" or \"morton\""),
        "{msg}"
    );
    let msg = error_of(&history.replace("steps = 10", "steps = 10\nsort_order = \"rows\""));
    assert!(
        msg.contains("run.sort_order") && msg.contains("sort_every"),
        "{msg}"
    );
}

#[test]
fn no_input_makes_the_parser_panic() {
    // Every prefix of a valid file, and the file with each line dropped, is either valid or a
    // one-line error: the parser never panics on truncated or partial input.
    for cut in 0..GOOD.len() {
        if GOOD.is_char_boundary(cut) {
            if let Err(e) = parse(&GOOD[..cut], Path::new("x.toml")) {
                assert!(!e.to_string().contains('\n'));
            }
        }
    }
    let lines: Vec<&str> = GOOD.lines().collect();
    for k in 0..lines.len() {
        let src: Vec<&str> = lines
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != k)
            .map(|(_, l)| *l)
            .collect();
        let _ = parse(&src.join("\n"), Path::new("x.toml"));
    }
}

/// The reference case with `section` added at its end.
fn with_section(section: &str) -> String {
    format!("{GOOD}\n{section}")
}

/// Every fixed-length array key refuses a wrong number of components, one too many and one too
/// few: nothing is silently cut (a quad `[0, 1, 2, 3]` never becomes the triangle `[0, 1, 2]`).
/// A row: the case with `@` where the array goes, and a valid array (`[run] gravity`, in the
/// reference case's first table, is a key of its own).
#[rstest]
#[case::plane_center(with_section("[[wall]]\nmaterial = \"glass\"\nplane = { center = @, normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }"), "[0.0, 0.0, -1.0]")]
#[case::plane_normal(with_section("[[wall]]\nmaterial = \"glass\"\nplane = { center = [0.0, 0.0, -1.0], normal = @, size = [1.0, 1.0] }"), "[0.0, 0.0, 1.0]")]
#[case::plane_size(with_section("[[wall]]\nmaterial = \"glass\"\nplane = { center = [0.0, 0.0, -1.0], normal = [0.0, 0.0, 1.0], size = @ }"), "[1.0, 1.0]")]
#[case::plane_divisions(with_section("[[wall]]\nmaterial = \"glass\"\nplane = { center = [0.0, 0.0, -1.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0], divisions = @ }"), "[2, 2]")]
#[case::box_min(
    with_section("[[wall]]\nmaterial = \"glass\"\nbox = { min = @, max = [1.0, 1.0, 1.0] }"),
    "[-1.0, -1.0, -1.0]"
)]
#[case::box_max(
    with_section("[[wall]]\nmaterial = \"glass\"\nbox = { min = [-1.0, -1.0, -1.0], max = @ }"),
    "[1.0, 1.0, 1.0]"
)]
#[case::vertex(with_section("[[wall]]\nmaterial = \"glass\"\nvertices = [[0.0, 0.0, -1.0], [1.0, 0.0, -1.0], @]\nfacets = [[0, 1, 2]]"), "[0.0, 1.0, -1.0]")]
#[case::facet(with_section("[[wall]]\nmaterial = \"glass\"\nvertices = [[0.0, 0.0, -1.0], [1.0, 0.0, -1.0], [0.0, 1.0, -1.0]]\nfacets = [@]"), "[0, 1, 2]")]
#[case::rigid_motion_vel(with_section("[[wall]]\nmaterial = \"glass\"\nplane = { center = [0.0, 0.0, -1.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }\nmotion = { kind = \"rigid\", vel = @ }"), "[0.0, 0.0, 0.1]")]
#[case::ball_pos(
    with_section("[[ball]]\npos = @\nradius = 0.01\nmaterial = \"glass\""),
    "[0.1, 0.0, 0.0]"
)]
#[case::ball_vel(
    with_section("[[ball]]\npos = [0.1, 0.0, 0.0]\nvel = @\nradius = 0.01\nmaterial = \"glass\""),
    "[0.1, 0.0, 0.0]"
)]
#[case::clump_pos(with_section("[[clump]]\npos = @\nmaterial = \"glass\"\npebbles = [{ offset = [0.0, 0.0, 0.0], radius = 0.01 }]"), "[0.1, 0.0, 0.0]")]
#[case::pebble_offset(with_section("[[clump]]\npos = [0.1, 0.0, 0.0]\nmaterial = \"glass\"\npebbles = [{ offset = @, radius = 0.01 }]"), "[0.0, 0.0, 0.0]")]
#[case::generator_min(with_section("[[generate]]\nkind = \"lattice\"\ncount = 2\nmin = @\nmax = [1.2, 0.2, 0.2]\nradius = [0.01, 0.01]\nmaterial = \"glass\""), "[1.0, 0.0, 0.0]")]
#[case::generator_radius(with_section("[[generate]]\nkind = \"lattice\"\ncount = 2\nmin = [1.0, 0.0, 0.0]\nmax = [1.2, 0.2, 0.2]\nradius = @\nmaterial = \"glass\""), "[0.01, 0.01]")]
#[case::run_gravity(GOOD.replace("steps = 10", "steps = 10\ngravity = @"), "[0.0, 0.0, -9.81]")]
fn every_fixed_length_array_refuses_a_wrong_length(#[case] section: String, #[case] good: &str) {
    let valid = section.replace('@', good);
    if let Err(e) = parse(&valid, Path::new("cases/bad.toml")) {
        panic!("the valid form is refused: {e}\n{valid}");
    }
    let longer = good.replacen(']', ", 7]", 1);
    let shorter = match good.rfind(',') {
        Some(k) => format!("{}]", &good[..k]),
        None => "[]".to_string(),
    };
    for wrong in [longer, shorter] {
        let msg = error_of(&section.replace('@', &wrong));
        assert!(
            msg.contains("cases/bad.toml") && msg.contains("components"),
            "{wrong} in {section}: {msg}"
        );
    }
}

/// The contact rule's pair of material names has exactly two.
#[test]
fn a_contact_rule_names_exactly_two_materials() {
    // the contact rule's pair of material names
    let msg = error_of(&GOOD.replace(
        "between = [\"glass\", \"glass\"]",
        "between = [\"glass\", \"glass\", \"glass\"]",
    ));
    assert!(
        msg.contains("between") && msg.contains("exactly 2"),
        "{msg}"
    );
}

/// Names become folders and CSV headers: a case name that is not one safe folder name (`..`
/// would write over reports/index.html) is refused, and the error echoes it with its control
/// characters escaped, on one line. A row: the name as the case file writes it, and the reason
/// the message must give.
#[rstest]
#[case::dot_dot("..", "must not be . or ..")]
#[case::dot(".", "must not be . or ..")]
#[case::empty("", "must not be empty")]
#[case::slash("a/b", "slash")]
#[case::backslash("a\\\\b", "slash")]
#[case::bell("bell\\u0007", "control characters")]
#[case::nul("nul\\u0000", "control characters")]
fn a_case_name_that_is_not_a_safe_folder_is_refused(#[case] name: &str, #[case] why: &str) {
    let msg = error_of(&format!("name = \"{name}\"\n{GOOD}"));
    assert!(
        msg.contains("cases/bad.toml: name:") && msg.contains(why),
        "{name}: {msg}"
    );
    assert!(!msg.chars().any(char::is_control), "{msg:?}");
}

/// A wall named `@`.
const NAMED_WALL: &str = "[[wall]]\nname = @\nmaterial = \"glass\"\nplane = { center = [0.0, 0.0, -1.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }";

/// A wall name with a control character (or one that is not a safe series name) is refused
/// naming the key, on one line. A row: the name as the case file writes it.
#[rstest]
#[case::newline("\"a\\nb\"")]
#[case::escape("\"esc\\u001b[31m\"")]
#[case::slash("\"a/b\"")]
#[case::empty("\"\"")]
fn a_wall_name_that_is_not_a_safe_series_name_is_refused(#[case] name: &str) {
    let msg = error_of(&format!("{GOOD}\n{}", NAMED_WALL.replace('@', name)));
    assert!(msg.contains("wall[1].name"), "{name}: {msg}");
    assert!(!msg.chars().any(char::is_control), "{msg:?}");
}

/// Names become folders and CSV headers: a case name longer than 200 bytes is refused; a comma
/// is fine in a wall name (the CSV header quotes it).
#[test]
fn names_must_be_safe_folders_and_series_names() {
    let long = "x".repeat(201);
    assert!(error_of(&format!("name = \"{long}\"\n{GOOD}")).contains("200 bytes"));
    // a comma is fine in a wall name: the CSV header quotes it
    parse(
        &format!("{GOOD}\n{}", NAMED_WALL.replace('@', "\"fl,oor\"")),
        Path::new("cases/ok.toml"),
    )
    .unwrap();
}

/// Sizes are checked against the memory there is before anything is allocated: a generator's
/// count beyond it is refused. A row: the count.
#[rstest]
#[case::count_1e18("1000000000000000000")]
#[case::count_1e10("10000000000")]
#[case::count_u64_max("18446744073709551615")]
fn a_generator_count_beyond_memory_is_refused_before_allocating(#[case] count: &str) {
    let gen = "[[generate]]\nkind = \"lattice\"\ncount = @\nmin = [1.0, 0.0, 0.0]\nmax = [2.0, 1.0, 1.0]\nradius = [0.001, 0.001]\nmaterial = \"glass\"";
    let msg = error_of(&format!("{GOOD}\n{}", gen.replace('@', count)));
    assert!(
        msg.contains("generate[1].count") && msg.contains("memory"),
        "{msg}"
    );
}

/// Sizes are checked against the memory there is before anything is allocated: a plane's
/// divisions, a mesh file that is not a regular file (/dev/zero never ends); a generator's
/// count in [`a_generator_count_beyond_memory_is_refused_before_allocating`].
#[test]
fn sizes_beyond_memory_and_endless_files_are_refused_before_allocating() {
    let plane = "[[wall]]\nmaterial = \"glass\"\nplane = { center = [0.0, 0.0, -1.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0], divisions = [10000, 10000] }";
    let msg = error_of(&format!("{GOOD}\n{plane}"));
    assert!(
        msg.contains("plane.divisions") && msg.contains("memory"),
        "{msg}"
    );
    if Path::new("/dev/zero").exists() {
        let mesh = "[[wall]]\nmaterial = \"glass\"\nmesh = \"/dev/zero\"";
        let msg = error_of(&format!("{GOOD}\n{mesh}"));
        assert!(
            msg.contains("wall[1].mesh") && msg.contains("not a regular file"),
            "{msg}"
        );
    }
}

/// Ids are unique across balls and clumps (found by hashing, not by a scan per ball): each
/// clash names the second owner's key and the first owner.
#[test]
fn a_repeated_id_names_both_owners() {
    let two = GOOD.replacen("[[ball]]\npos", "[[ball]]\nid = 7\npos", 2);
    let msg = error_of(&two);
    assert!(
        msg.contains("ball[2].id") && msg.contains("id 7 is already used by ball[1]"),
        "{msg}"
    );
    let clump = "[[clump]]\nid = @\npos = [1.0, 0.0, 0.0]\nmaterial = \"glass\"\npebbles = [{ offset = [0.0, 0.0, 0.0], radius = 0.01 }]";
    let msg = error_of(&format!("{GOOD}\n{}", clump.replace('@', "2")));
    assert!(
        msg.contains("clump[1].id") && msg.contains("already used by a ball"),
        "{msg}"
    );
    let second = clump.replace("[1.0, 0.0, 0.0]", "[2.0, 0.0, 0.0]");
    let msg = error_of(&format!(
        "{GOOD}\n{}\n{}",
        clump.replace('@', "5"),
        second.replace('@', "5")
    ));
    assert!(
        msg.contains("clump[2].id") && msg.contains("already used by clump[1]"),
        "{msg}"
    );
    // without ids, clumps number on after the largest id in use
    let case = parse(
        &format!(
            "{GOOD}\n{}\n{}",
            clump.replace("id = @\n", ""),
            second.replace("id = @\n", "")
        ),
        Path::new("cases/ok.toml"),
    )
    .unwrap();
    assert_eq!(case.clumps.iter().map(|c| c.id).collect::<Vec<_>>(), [3, 4]);
}

/// Input errors are refused when the case is read (exit 2 in `check` and `run`), not found by
/// the run: balls that start inside each other or with the centre near a facet, masses that
/// underflow or overflow, a same_series case that is not there, a solve ratio that is not a
/// positive number, a run length that cannot finish. A row: what is wrong, the case text, and
/// the words the message must hold.
#[rstest]
#[case::balls_overlapping_by_more_than_a_radius("balls overlapping by more than a radius",
            GOOD.replace("pos = [0.03, 0.0, 0.0]", "pos = [0.009, 0.0, 0.0]"),
            &["ball:", "ball 1 and ball 2", "more than the smaller radius"])]
#[case::a_centre_on_a_facet("a centre on a facet",
            format!("{GOOD}\n[[wall]]\nname = \"floor\"\nmaterial = \"glass\"\nplane = {{ center = [0.03, 0.0, 0.0], normal = [1.0, 0.0, 0.0], size = [1.0, 1.0] }}"),
            &["wall[1]:", "ball 2", "wall \"floor\"", "half its radius"])]
#[case::a_centre_on_the_shared_edge_of_two_facets("a centre on the shared edge of two facets",
            format!("{GOOD}\n[[wall]]\nname = \"floor\"\nmaterial = \"glass\"\nplane = {{ center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0], divisions = [2, 1] }}"),
            &["wall[1]:", "ball 1", "half its radius"])]
#[case::zero_mass("zero mass",
            GOOD.replacen("radius = 0.01", "radius = 1e-300", 1),
            &["ball id 1", "mass 0e0"])]
#[case::infinite_mass("infinite mass",
            GOOD.replacen("radius = 0.01", "radius = 1e300", 1),
            &["ball id 1", "mass inf"])]
#[case::a_missing_same_series_case("a missing same_series case",
            format!("{GOOD}\n[[check]]\nkind = \"same_series\"\nseries = \"energy/kinetic\"\ncase = \"not_there.toml\"\ntolerance = 0.0"),
            &["check[1].case", "not_there.toml", "no such case file"])]
#[case::solve_ratio_nan("solve_ratio NaN",
            GOOD.replace("steps = 10", "steps = 10\nsolve_ratio = nan"),
            &["run.solve_ratio", "positive"])]
#[case::solve_ratio_negative("solve_ratio negative",
            GOOD.replace("steps = 10", "steps = 10\nsolve_ratio = -1e-3"),
            &["run.solve_ratio", "positive"])]
#[case::steps_2_pow_63_minus_1("2^63 - 1 steps",
            GOOD.replace("steps = 10", "steps = 9223372036854775807"),
            &["run.steps", "cannot finish"])]
#[case::a_restart_after_the_last_cycle("a restart after the last cycle",
            GOOD.replace("steps = 10", "steps = 10\nrestart_at = 10"),
            &["run.restart_at", "one before its last"])]
#[case::a_restart_after_the_last_cycle_of_a_duration("a restart after the last cycle of a duration",
            GOOD.replace("steps = 10", "duration = 1e-5\nrestart_at = 20"),
            &["run.restart_at", "the run has 10 cycles"])]
#[case::a_duration_of_1e300_s_at_1e_6_s("a duration of 1e300 s at 1e-6 s",
            GOOD.replace("steps = 10", "duration = 1e300"),
            &["run.duration", "cannot finish"])]
fn input_errors_are_refused_before_the_run(
    #[case] what: &str,
    #[case] src: String,
    #[case] words: &[&str],
) {
    let msg = error_of(&src);
    for w in words {
        assert!(msg.contains(w), "{what}: \"{w}\" not in: {msg}");
    }
}

/// A ball that starts touching a wall (overlap a tenth of its radius) is a valid start.
#[test]
fn a_ball_touching_a_wall_is_a_valid_start() {
    // a ball that starts touching a wall (overlap a tenth of its radius) is a valid start
    parse(
        &format!("{GOOD}\n[[wall]]\nmaterial = \"glass\"\nplane = {{ center = [0.0, 0.0, -0.009], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }}"),
        Path::new("cases/ok.toml"),
    )
    .unwrap();
}

/// A Hertz ball dropped on a steel plate at `dt` (no contact at the start: the start's
/// critical estimate has nothing to refuse).
fn hertz_drop(dt: &str, vel: &str) -> String {
    format!(
        r#"
[run]
steps = 20000
gravity = [0.0, 0.0, -9.81]
[timestep]
mode = "fixed"
dt = {dt}
[material.steel]
density = 7800.0
young = 2e11
poisson = 0.3
[[contact]]
between = ["*", "*"]
model = "hertz"
restitution = 1.0
friction = 0.3
[[ball]]
pos = [0.0, 0.0, 0.06]
vel = {vel}
radius = 0.05
material = "steel"
[[wall]]
material = "steel"
plane = {{ center = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0], size = [1.0, 1.0] }}
"#
    )
}

/// Blow-ups are stopped, never passed: a fixed dt above the critical estimate of the contacts
/// at the start is refused unless the case says it knows; in the run, energy from nothing,
/// energy that is not finite and a ball moving more than its radius in a cycle stop it with the
/// cycle, the body and the quantity. The same drop at a stable step runs to its end.
#[test]
fn blow_ups_are_refused_or_stopped_naming_cycle_body_and_quantity() {
    // at the start: two balls pressed together (overlap 1 mm), dt 40 times their critical step
    let pressed = GOOD
        .replace("pos = [0.03, 0.0, 0.0]", "pos = [0.019, 0.0, 0.0]")
        .replace("dt = 1e-6", "dt = 1e-2");
    let msg = error_of(&pressed);
    assert!(
        msg.contains("timestep.dt") && msg.contains("times the critical timestep"),
        "{msg}"
    );
    let allowed = pressed.replace("dt = 1e-2", "dt = 1e-2\nallow_above_critical = true");
    parse(&allowed, Path::new("cases/ok.toml")).unwrap();
    // in the run
    let run = |src: &str| {
        let case = parse(src, Path::new("cases/drop.toml")).unwrap();
        ballast::run::simulate(&case, None, &[], false, None)
            .unwrap()
            .error
    };
    let stable = run(&hertz_drop("2e-5", "[0.0, 0.0, -5.0]"));
    assert_eq!(stable, None, "the stable drop was stopped");
    let msg = run(&hertz_drop("3e-4", "[0.0, 0.0, -5.0]")).expect("dt 3e-4 not stopped");
    assert!(
        msg.starts_with("cycle ") && msg.contains("energy from nothing") && msg.contains("ball 1"),
        "{msg}"
    );
    let msg = run(&hertz_drop("1e-3", "[0.0, 0.0, -5.0]")).expect("dt 1e-3 not stopped");
    assert!(
        msg.contains("ball 1")
            && (msg.contains("tunnelling") || msg.contains("energy from nothing")),
        "{msg}"
    );
    let msg = run(&hertz_drop("2e-5", "[0.0, 0.0, -1e300]")).expect("infinite energy not stopped");
    assert!(
        msg.contains("cycle 0") && msg.contains("kinetic energy is inf") && msg.contains("ball 1"),
        "{msg}"
    );
    // two balls crossing at 1,000 m/s with dt 1e-4: 0.1 m per cycle, ten radii; found in the
    // cycle it happens (the first), not at the next look of the watch
    let fast = GOOD.replace("dt = 1e-6", "dt = 1e-4").replacen(
        "material = \"glass\"",
        "material = \"glass\"\nvel = [1000.0, 0.0, 0.0]",
        1,
    );
    let msg = run(&fast).expect("tunnelling not stopped");
    assert!(
        msg.contains("tunnelling") && msg.contains("ball 1") && msg.starts_with("cycle 1:"),
        "{msg}"
    );
}

/// A ball resting on a square of two facets (its centre over their shared edge), the square
/// given by `wall`: the force on the ball and its active facet contacts after the first pass.
fn ball_on_square(wall: &str, dir: &Path) -> (f64, usize) {
    let src = format!(
        "[run]\nsteps = 1\n[timestep]\nmode = \"fixed\"\ndt = 1e-6\n[material.glass]\ndensity = 2500.0\n[[contact]]\nbetween = [\"glass\", \"glass\"]\nmodel = \"linear\"\nkn = 1e5\n[[ball]]\npos = [0.5, 0.5, 0.009]\nradius = 0.01\nmaterial = \"glass\"\n[[wall]]\nname = \"square\"\nmaterial = \"glass\"\n{wall}\n"
    );
    let case = parse(&src, &dir.join("case.toml")).unwrap_or_else(|e| panic!("{wall}: {e}"));
    let mut model = case.build_model(None).unwrap();
    model.prime().unwrap();
    (model.balls.force[0].z, model.facet_contacts.active_count())
}

/// Meshes: an OBJ or inline mesh that repeats the vertices of a seam is welded, so a ball on the
/// seam gets one contact, the force of the mesh that shares them (not twice it); an ASCII STL
/// cut inside a facet or before `endsolid`, a binary STL cut short (its header starting with
/// "solid"), are refused saying so.
#[test]
fn mesh_seams_are_welded_and_cut_files_refused() {
    let dir = std::env::temp_dir().join(format!("ballast_seams_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // the square (0,0)-(1,1) at z = 0, split along its diagonal from (0,0) to (1,1)
    let shared = "vertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]\nfacets = [[0, 1, 2], [0, 2, 3]]";
    let repeated = "vertices = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0]]\nfacets = [[0, 1, 2], [3, 4, 5]]";
    std::fs::write(
        dir.join("seam.obj"),
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3\nf 4 5 6\n",
    )
    .unwrap();
    let (force, active) = ball_on_square(shared, &dir);
    // one contact, overlap 1 mm: kn x 1e-3 = 100 N
    assert_eq!(active, 1);
    assert!((force - 100.0).abs() < 1e-9, "{force}");
    for wall in [repeated, "mesh = \"seam.obj\""] {
        assert_eq!(ball_on_square(wall, &dir), (force, 1), "{wall}");
    }
    // cut files
    let facet = " facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 1 1 0\n  endloop\n endfacet\n";
    let whole = format!(
        "solid s\n{facet}{}endsolid s\n",
        facet.replace("1 1 0", "0 1 0").replace("1 0 0", "1 1 0")
    );
    std::fs::write(dir.join("whole.stl"), &whole).unwrap();
    ball_on_square("mesh = \"whole.stl\"", &dir);
    let inside = &whole[..whole.find("endloop").unwrap()];
    let between = &whole[..whole.find("endsolid").unwrap()];
    let mut binary = b"solid written by a tool that says solid in binary files".to_vec();
    binary.resize(80, b' ');
    binary.extend_from_slice(&2u32.to_le_bytes());
    binary.extend_from_slice(&[0u8; 50]); // one facet of the two
    for (name, bytes, words) in [
        ("inside.stl", inside.as_bytes(), "has no endfacet"),
        ("between.stl", between.as_bytes(), "no endsolid"),
        ("short.stl", &binary[..], "cut or padded"),
    ] {
        std::fs::write(dir.join(name), bytes).unwrap();
        let msg = match parse(
            &format!(
                "[run]\nsteps = 1\n[timestep]\nmode = \"fixed\"\ndt = 1e-6\n[material.glass]\ndensity = 2500.0\n[[wall]]\nmaterial = \"glass\"\nmesh = \"{name}\"\n"
            ),
            &dir.join("case.toml"),
        ) {
            Ok(_) => panic!("{name} accepted"),
            Err(e) => e.to_string(),
        };
        assert!(
            msg.contains("wall[1].mesh") && msg.contains(words),
            "{name}: {msg}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file of many `[[ball]]` tables (a packing written by a script) is read by a fast path
/// that takes the plain tables directly (case/fast_balls.rs): it must give the balls the TOML
/// parser gives, in every notation it accepts; a table it does not take (a multi-line array)
/// sends the file to the parser whole, and an error keeps the parser's line number.
#[test]
fn many_ball_tables_read_as_the_toml_parser_reads_them() {
    let head = GOOD.split("[[ball]]").next().unwrap().to_string();
    let n = 12_000;
    let mut src = head.clone();
    for k in 0..n {
        let x = k as f64 * 0.03;
        // the notations the fast path reads: exponents, signs, integers, comments, ids,
        // velocities, forces, a trailing comma, blank lines
        src += &match k % 4 {
            0 => format!("[[ball]]\npos = [{x}, 0.0, 0.0]\nradius = 0.01\nmaterial = \"glass\"\n"),
            1 => format!("[[ball]]\n# a comment\nid = {}\npos = [{:e}, -0.0, +1e-3]\nradius = 1e-2 # m\nmaterial = \"glass\"\nvel = [1, -2, 3,]\n\n", k + 1, x),
            2 => format!("[[ball]]\npos = [{x}, 1E+0, 0]\nradius = 0.010\nmaterial = \"glass\"\nforce = [0.5, 0.0, -9.81]\n"),
            _ => format!("[[ball]]\nmaterial = \"glass\"\nradius = 0.01\npos = [{x}, 2.0, 0.0]\nspin = [0.0, 1.5, 0.0]\n"),
        };
    }
    let fast = parse(&src, Path::new("cases/many.toml")).unwrap();
    let slow: ballast::case::CaseFile = toml::from_str(&src).unwrap();
    assert_eq!(fast.balls.len(), n);
    assert_eq!(slow.ball.len(), n);
    for (k, (b, s)) in fast.balls.iter().zip(&slow.ball).enumerate() {
        assert_eq!(b.id, s.id.unwrap_or(k as u64 + 1), "ball {k}");
        assert_eq!(b.pos.as_slice(), &s.pos[..], "ball {k}");
        assert_eq!(b.radius, s.radius, "ball {k}");
        let v = s.vel.clone().unwrap_or(vec![0.0; 3]);
        assert_eq!(b.vel.as_slice(), &v[..], "ball {k}");
        let f = s.force.clone().unwrap_or(vec![0.0; 3]);
        assert_eq!(b.applied_force.as_slice(), &f[..], "ball {k}");
        if k % 4 == 3 {
            assert_eq!(b.spin.y, 1.5);
        }
    }
    // a table the fast path does not take: the parser reads the file whole, same balls
    let multi = src.replacen(
        "pos = [0, 0.0, 0.0]",
        "pos = [\n  0.0,\n  0.0,\n  0.0,\n]",
        1,
    );
    assert_ne!(multi, src);
    let whole = parse(&multi, Path::new("cases/many.toml")).unwrap();
    assert_eq!(whole.balls.len(), n);
    assert_eq!(whole.balls[0].pos, fast.balls[0].pos);
    // an unknown key in the last table: the parser's error, at its line
    let bad = format!(
        "{src}[[ball]]\npos = [0.0, 5.0, 0.0]\nradius = 0.01\nmaterial = \"glass\"\ncolour = 1\n"
    );
    let line = bad.lines().count();
    let msg = error_of(&bad);
    assert!(
        msg.contains(&format!("line {line}")) && msg.contains("colour"),
        "{msg}"
    );
}

/// A restart proof (`[run] restart_at`) whose cycle the run never reaches (a duration with an
/// automatic timestep ends first) fails the run instead of passing without a restart.
#[test]
fn a_restart_that_never_happens_fails_the_run() {
    let src = GOOD
        .replace("steps = 10", "duration = 1e-5\nrestart_at = 1000000")
        .replace("mode = \"fixed\"\ndt = 1e-6", "mode = \"auto\"\ndt = 1e-6");
    let case = parse(&src, Path::new("cases/restart.toml")).unwrap();
    let sim = ballast::run::simulate(&case, None, &[], false, None).unwrap();
    let msg = sim.error.expect("the run passed without its restart");
    assert!(
        msg.contains("restart_at = 1000000 was never reached"),
        "{msg}"
    );
}

/// The reference case with an insertion `feed` whose keys after its region are `body`.
fn insertion(body: &str) -> String {
    format!(
        "{GOOD}[[insert]]\nname = \"feed\"\nmaterial = \"glass\"\nregion = {{ box = {{ min = [0.0, 0.0, 0.1], max = [0.1, 0.1, 0.2] }} }}\n{body}\n"
    )
}

/// `[[insert]]`: each bad key is refused naming it, before the run. A row: what is wrong, the
/// insertion's keys, and the key the message must name.
#[rstest]
#[case::no_rate_no_count(
    "no rate, no count",
    "radius = { kind = \"uniform\", min = 0.002, max = 0.003 }",
    "insert[1].count"
)]
#[case::both_rates(
    "both rates",
    "rate = 1.0\nmass_rate = 1.0\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }",
    "insert[1].mass_rate"
)]
#[case::unknown_kind(
    "unknown kind",
    "rate = 1.0\nradius = { kind = \"weibull\", min = 0.002, max = 0.003 }",
    "insert[1].radius.kind"
)]
#[case::key_of_another_kind(
    "key of another kind",
    "rate = 1.0\nradius = { kind = \"uniform\", min = 0.002, max = 0.003, sigma = 0.1 }",
    "insert[1].radius.sigma"
)]
#[case::max_below_min(
    "max below min",
    "rate = 1.0\nradius = { kind = \"uniform\", min = 0.003, max = 0.002 }",
    "insert[1].radius.max"
)]
#[case::fractions(
    "fractions",
    "count = 5\nradius = { kind = \"discrete\", radii = [0.002, 0.003], fractions = [1.0] }",
    "insert[1].radius.fractions"
)]
#[case::by("by", "count = 5\nradius = { kind = \"discrete\", radii = [0.002], fractions = [1.0], by = \"volume\" }", "insert[1].radius.by")]
#[case::truncation_keeps_nothing("truncation keeps nothing", "rate = 1.0\nradius = { kind = \"normal\", mean = 0.001, std = 0.0001, min = 0.003, max = 0.004 }", "insert[1].radius")]
#[case::too_large_for_the_region(
    "too large for the region",
    "rate = 1.0\nradius = { kind = \"uniform\", min = 0.002, max = 0.06 }",
    "insert[1].region"
)]
#[case::stop_before_start("stop before start", "rate = 1.0\nstart = 0.5\nstop = 0.1\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }", "insert[1].stop")]
#[case::count_zero(
    "count zero",
    "count = 0\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }",
    "insert[1].count"
)]
#[case::count_beyond_memory(
    "count beyond memory",
    "count = 9000000000000000\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }",
    "insert[1].count"
)]
fn a_bad_insertion_key_is_refused_naming_it(
    #[case] what: &str,
    #[case] body: &str,
    #[case] key: &str,
) {
    let e = error_of(&insertion(body));
    assert!(
        e.contains(key) && e.contains("cases/bad.toml"),
        "{what}: {e}"
    );
}

/// `[[insert]]` and `[[outlet]]`: a valid insertion is read; a region that is not exactly one of
/// box and cylinder, a series that follows a ball by index beside an outlet, an unknown
/// insertion named by a series or a check are refused naming the key, before the run.
#[test]
fn insertions_and_outlets_are_validated() {
    let ok = "rate = 100.0\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }";
    parse(&insertion(ok), Path::new("cases/good.toml")).unwrap();
    // a region that is not exactly one of box and cylinder
    let e = error_of(&insertion(ok).replace(
        "region = { box = { min = [0.0, 0.0, 0.1], max = [0.1, 0.1, 0.2] } }",
        "region = { all = true }",
    ));
    assert!(e.contains("insert[1].region") && e.contains("box"), "{e}");
    // an outlet: a series that follows a ball by index is refused (removal renumbers)
    let outlet = format!(
        "{GOOD}[[outlet]]\nregion = {{ cylinder = {{ base = [0.0, 0.0, -1.0], axis = [0.0, 0.0, 1.0], radius = 0.1, height = 0.1 }} }}\n[output]\nseries = [\"ball/1/pos\"]\n"
    );
    let e = error_of(&outlet);
    assert!(e.contains("outlet") && e.contains("ball/1/pos"), "{e}");
    // an unknown insertion in a series or a check
    let e = error_of(&format!(
        "{}[output]\nseries = [\"insert/fed/count\"]\n",
        insertion(ok)
    ));
    assert!(e.contains("no insertion named \"fed\""), "{e}");
    let e = error_of(&format!(
        "{}[[check]]\nkind = \"radius_distribution\"\ninsert = \"fed\"\n",
        insertion(ok)
    ));
    assert!(e.contains("check[1]") && e.contains("fed"), "{e}");
}

/// The reference case with a plane `p` moving by `motion`.
fn with_wall_motion(motion: &str) -> String {
    format!(
        "{GOOD}[[wall]]\nname = \"p\"\nmaterial = \"glass\"\nplane = {{ center = [0.0, 0.0, -0.02], normal = [0.0, 0.0, 1.0], size = [0.1, 0.1] }}\nmotion = {motion}\n"
    )
}

/// Programmed wall motions of each kind are read. A row: the motion.
#[rstest]
#[case::rigid_schedule(
    "{ kind = \"rigid\", schedule = [ { t = 0.0 }, { t = 0.1, vel = [0.0, 0.0, 1.0] } ] }"
)]
#[case::oscillate(
    "{ kind = \"oscillate\", direction = [0.0, 0.0, 2.0], amplitude = 1e-3, frequency = 10.0 }"
)]
#[case::servo("{ kind = \"servo\", direction = [0.0, 0.0, 1.0], target_stress = 100.0, gain = 1e-3, max_speed = 0.1 }")]
fn a_programmed_wall_motion_of_each_kind_is_read(#[case] motion: &str) {
    parse(&with_wall_motion(motion), Path::new("cases/good.toml")).unwrap();
}

/// Programmed wall motions: a key of another kind, a schedule out of order, a servo without
/// one target, a zero direction are refused naming the key. A row: the motion, and the key the
/// message must name.
#[rstest]
#[case::rigid_vel_beside_a_schedule(
    "{ kind = \"rigid\", vel = [0.0, 0.0, 1.0], schedule = [ { t = 0.0 } ] }",
    "wall[1].motion.schedule"
)]
#[case::schedule_out_of_order(
    "{ kind = \"rigid\", schedule = [ { t = 0.2 }, { t = 0.1 } ] }",
    "wall[1].motion.schedule[2].t"
)]
#[case::unknown_schedule_key(
    "{ kind = \"rigid\", schedule = [ { t = 0.0, speed = 1.0 } ] }",
    "speed"
)]
#[case::oscillation_without_frequency(
    "{ kind = \"oscillate\", direction = [0.0, 0.0, 1.0], amplitude = 1e-3 }",
    "wall[1].motion.frequency"
)]
#[case::zero_direction(
    "{ kind = \"oscillate\", direction = [0.0, 0.0, 0.0], amplitude = 1e-3, frequency = 1.0 }",
    "wall[1].motion.direction"
)]
#[case::gain_on_an_oscillation("{ kind = \"oscillate\", direction = [0.0, 0.0, 1.0], amplitude = 1e-3, frequency = 1.0, gain = 1.0 }", "wall[1].motion.gain")]
#[case::servo_without_a_target(
    "{ kind = \"servo\", direction = [0.0, 0.0, 1.0], gain = 1e-3, max_speed = 0.1 }",
    "wall[1].motion.target_force"
)]
#[case::servo_with_two_targets("{ kind = \"servo\", direction = [0.0, 0.0, 1.0], target_force = 1.0, target_stress = 1.0, gain = 1e-3, max_speed = 0.1 }", "wall[1].motion.target_force")]
#[case::negative_gain("{ kind = \"servo\", direction = [0.0, 0.0, 1.0], target_force = 1.0, gain = -1.0, max_speed = 0.1 }", "wall[1].motion.gain")]
#[case::unknown_kind("{ kind = \"wobble\" }", "wall[1].motion.kind")]
fn programmed_wall_motions_are_validated(#[case] motion: &str, #[case] key: &str) {
    let e = error_of(&with_wall_motion(motion));
    assert!(
        e.contains(key) && e.contains("cases/bad.toml"),
        "{motion}: {e}"
    );
}

/// `[[measure]]`: a valid region and its series are read.
#[test]
fn a_measurement_region_and_its_series_are_read() {
    let with = |body: &str| format!("{GOOD}{body}");
    let ok = "[[measure]]\nname = \"m\"\nregion = { all = true }\n[output]\nseries = [\"measure/m/stress\", \"measure/m/porosity\"]\n";
    parse(&with(ok), Path::new("cases/good.toml")).unwrap();
}

/// `[[measure]]`: a region with `all = false` or two shapes, a repeated name, a series of a
/// region that does not exist, a tensor column without its two axes. A row: the text added to
/// the reference case, and what the message must name.
#[rstest]
#[case::all_false("[[measure]]\nregion = { all = false }\n", "measure[1].region.all")]
#[case::all_and_a_box("[[measure]]\nregion = { all = true, box = { min = [0.0, 0.0, 0.0], max = [1.0, 1.0, 1.0] } }\n", "measure[1].region")]
#[case::flat_box(
    "[[measure]]\nregion = { box = { min = [0.0, 0.0, 0.0], max = [1.0, 0.0, 1.0] } }\n",
    "measure[1].region.box.max"
)]
#[case::repeated_name("[[measure]]\nname = \"a\"\nregion = { all = true }\n[[measure]]\nname = \"a\"\nregion = { all = true }\n", "measure[2].name")]
#[case::series_of_an_unknown_region("[[measure]]\nname = \"a\"\nregion = { all = true }\n[output]\nseries = [\"measure/b/stress\"]\n", "no measurement region named \"b\"")]
#[case::tensor_column_without_its_axes("[[measure]]\nname = \"a\"\nregion = { all = true }\n[[check]]\nkind = \"final_value\"\nseries = \"measure/a/stress.z\"\nexpected = 1.0\ntolerance = 0.1\n", "name a column")]
fn measurement_regions_are_validated(#[case] body: &str, #[case] key: &str) {
    let with = |body: &str| format!("{GOOD}{body}");
    let e = error_of(&with(body));
    assert!(e.contains(key), "{body}: {e}");
}

/// The reference case with the region-less keys of a `beverloo` check replaced by `keys`.
fn beverloo(keys: &str) -> String {
    format!(
        "{GOOD}[[check]]\nkind = \"beverloo\"\nseries = \"outlet/o/mass\"\nwindow = [0.1, 0.2]\n\
         orifice = 0.01\nparticle_diameter = 0.002\nparticle_density = 2500.0\n\
         porosity_series = \"measure/m/porosity\"\ntolerance = 0.1\n{keys}\n"
    )
}

const FIT: &str =
    "fit = [{ case = \"a.toml\", orifice = 0.008 }, { case = \"b.toml\", orifice = 0.012 }]";

/// What a run cannot do as the case asks, and what is refused too late or under the wrong
/// name, is refused at reading naming the key. A row: what is wrong, the case, and what the
/// message must name.
#[rstest]
#[case::insertion_after_the_end(
    "insertion after the end",
    insertion("count = 3\nstart = 1.0\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }"),
    "insert[1].start: 1 s: the run ends at"
)]
#[case::outlet_over_the_insertion("outlet over the insertion", format!("{}[[outlet]]\nregion = {{ box = {{ min = [0.0, 0.0, 0.15], max = [0.1, 0.1, 0.3] }} }}\n[output]\nseries = [\"energy/kinetic\"]\n", insertion("count = 3\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }")), "outlet[1].region: outlet \"outlet1\" overlaps the region of insert[1]")]
#[case::negative_servo_target("negative servo target", with_wall_motion("{ kind = \"servo\", direction = [0.0, 0.0, 1.0], target_force = -1.0, gain = 1e-3, max_speed = 0.1 }"), "wall[1].motion.target_force: -1: balls without cohesion only push")]
#[case::servo_away_from_the_balls("servo away from the balls", with_wall_motion("{ kind = \"servo\", direction = [0.0, 0.0, -1.0], target_force = 1.0, gain = 1e-3, max_speed = 0.1 }"), "wall[1].motion.direction: points away from every ball")]
#[case::servo_stress_without_area("servo stress without area", with_wall_motion("{ kind = \"servo\", direction = [1.0, 0.0, 0.0], target_stress = 1.0, gain = 1e-3, max_speed = 0.1 }"), "wall[1].motion.direction: the wall has no area projected")]
#[case::servo_without_balls("servo without balls", with_wall_motion("{ kind = \"servo\", direction = [0.0, 0.0, 1.0], target_force = 1.0, gain = 1e-3, max_speed = 0.1 }").replacen("[[ball]]\npos = [0.0, 0.0, 0.0]\nradius = 0.01\nmaterial = \"glass\"\n[[ball]]\npos = [0.03, 0.0, 0.0]\nradius = 0.01\nmaterial = \"glass\"\n", "", 1), "wall[1].motion: a servo with no ball")]
#[case::oscillation_at_whole_periods(
    "oscillation at whole periods",
    with_wall_motion(
        "{ kind = \"oscillate\", direction = [0.0, 0.0, 1.0], amplitude = 1e-3, frequency = 1e6 }"
    ),
    "wall[1].motion.frequency: 1000000 Hz with dt = 1e-6 s: each step is 2 half periods"
)]
#[case::pfc_rolling_spring_of_no_stiffness("PFC rolling spring of no stiffness", GOOD.replacen("kn = 1e5", "kn = 1e5\nrolling = { kind = \"pfc\", coefficient = 0.1 }", 1), "contact[1].rolling.kr: not given, and its default k_s R*² is 0")]
#[case::rolling_coefficient_1e200("rolling coefficient 1e200", GOOD.replacen("kn = 1e5", "kn = 1e5\nrolling = { kind = \"epsd\", coefficient = 1e200 }", 1), "contact[1].rolling.coefficient: 1e200: must be a number in [0, 1]")]
#[case::twisting_coefficient_above_1("twisting coefficient above 1", GOOD.replacen("kn = 1e5", "kn = 1e5\nrolling = { kind = \"cdt\", coefficient = 0.1 }\ntwisting = { coefficient = 2.0 }", 1), "contact[1].twisting.coefficient: 2: must be a number in [0, 1]")]
#[case::inserted_mass_underflows("inserted mass underflows", insertion("count = 3\nradius = { kind = \"uniform\", min = 1e-300, max = 0.003 }"), "insert[1].radius: a ball of radius 1e-300 m of \"glass\" (density 2.5e3 kg/m^3) has a mass of 0e0")]
#[case::inserted_mass_overflows("inserted mass overflows", insertion("count = 3\nradius = { kind = \"uniform\", min = 0.002, max = 1e300 }"), "insert[1].radius: a ball of radius 1e300 m of \"glass\" (density 2.5e3 kg/m^3) has a mass of inf")]
#[case::insert_radius_as_a_number(
    "insert radius as a number",
    insertion("count = 3\nradius = 0.001"),
    "expected a distribution of radii: { kind = \"uniform\", min, max }"
)]
#[case::plane_size("plane.size", with_section("[[wall]]\nmaterial = \"glass\"\nplane = { center = [0.0, 0.0, -1.0], normal = [0.0, 0.0, 1.0], size = [1.0] }"), "[[wall]] plane.size: [1.0] has 1 components")]
#[case::box_max(
    "box.max",
    with_section(
        "[[wall]]\nmaterial = \"glass\"\nbox = { min = [-1.0, -1.0, -1.0], max = [1.0, 1.0] }"
    ),
    "[[wall]] box.max: [1.0, 1.0] has 2 components"
)]
#[case::motion_vel(
    "motion.vel",
    with_wall_motion("{ kind = \"rigid\", vel = [1.0, 2.0] }"),
    "[[wall]] motion.vel: [1.0, 2.0] has 2 components"
)]
#[case::pebble_offset("pebbles[2].offset", format!("{GOOD}[[clump]]\npos = [1.0, 1.0, 1.0]\nmaterial = \"glass\"\npebbles = [{{ offset = [0.0, 0.0, 0.0], radius = 0.01 }}, {{ offset = [0.0, 0.01], radius = 0.01 }}]\n"), "[[clump]] pebbles[2].offset: [0.0, 0.01] has 2 components")]
#[case::check_tolerance("a check's tolerance", format!("{GOOD}[[check]]\nkind = \"final_value\"\nseries = \"energy/kinetic\"\nexpected = 0.0\ntolerance = \"big\"\n"), "check[1].tolerance (final_value): invalid type: string \"big\"")]
#[case::duplicate_key("duplicate key", GOOD.replacen("steps = 10", "steps = 10\nsteps = 20", 1), "duplicate key `steps`")]
#[case::inverted_c_range("inverted c_range", beverloo(&format!("porosity_at = 0.1\n{FIT}\nc_range = [0.7, 0.5]")), "c_range = [0.7, 0.5]: must be [low, high]")]
#[case::nan_porosity_time("NaN porosity time", beverloo(&format!("porosity_at = nan\n{FIT}")), "porosity_at = NaN: must be a non-negative finite number")]
#[case::orifice_smaller_than_a_particle("orifice smaller than a particle", beverloo(&format!("porosity_at = 0.1\n{FIT}")).replace("orifice = 0.01\n", "orifice = 0.001\n"), "orifice = 0.001: not wider than a particle")]
#[case::janssen_slice_named_twice("Janssen slice named twice", format!("{GOOD}[[check]]\nkind = \"janssen\"\nprofile = [\"a\", \"b\", \"a\"]\nmass_series = \"balls/mass\"\ndiameter = 0.02\nwall_friction = 0.3\nparticle_density = 2500.0\ntolerance = 0.1\n"), "check[1].profile[3] (janssen): slice \"a\" is named twice")]
#[case::crossing_facets("crossing facets", with_section("[[wall]]\nmaterial = \"glass\"\nvertices = [[-1.0, -1.0, -1.0], [1.0, -1.0, -1.0], [0.0, 1.0, -1.0], [0.0, -0.5, -1.5], [0.0, 0.5, -1.5], [0.0, 0.0, -0.5]]\nfacets = [[0, 1, 2], [3, 4, 5]]"), "facets 0 and 1 cross each other")]
fn what_a_run_cannot_do_is_refused_naming_the_key(
    #[case] what: &str,
    #[case] src: String,
    #[case] needle: &str,
) {
    let msg = error_of(&src);
    one_line_naming(what, &msg, needle);
}

/// A comparison with the case itself (a `beverloo` fit, a `same_series`) is refused naming the
/// key, before the run.
#[test]
fn a_check_that_compares_a_case_with_itself_is_refused() {
    let dir = std::env::temp_dir().join(format!("ballast-self-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fit =
        "fit = [{ case = \"me.toml\", orifice = 0.008 }, { case = \"b.toml\", orifice = 0.012 }]";
    let src = format!(
        "{}[[outlet]]\nname = \"o\"\nregion = {{ box = {{ min = [5.0, 5.0, 5.0], max = [6.0, 6.0, 6.0] }} }}\n\
         [[measure]]\nname = \"m\"\nregion = {{ all = true }}\n",
        beverloo(&format!("porosity_at = 0.1\n{fit}"))
    );
    let me = dir.join("me.toml");
    std::fs::write(&me, src).unwrap();
    std::fs::write(dir.join("b.toml"), GOOD).unwrap();
    let msg = ballast::case::load(&me).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(
        msg.contains("check[1].fit.case: \"me.toml\" is this case itself"),
        "{msg}"
    );
}

/// What may be intended runs, with one warning `FILE: key: reason` that the case keeps (and
/// the summary records). A row: what is asked, the case, the warning's key and reason.
#[rstest]
#[case::fractions_that_do_not_sum_to_1("fractions that do not sum to 1", insertion("count = 5\nradius = { kind = \"discrete\", radii = [0.002, 0.003], fractions = [0.5, 0.3] }"), "insert[1].radius.fractions: sum to 0.8, not 1")]
#[case::hertz_without_restitution("hertz without restitution", GOOD.replacen("model = \"linear\"\nkn = 1e5", "model = \"hertz\"", 1).replacen("density = 2500.0", "density = 2500.0\nyoung = 1e9", 1), "contact[1].restitution: not given: model \"hertz\" takes the default 1")]
#[case::insertion_that_never_meets_a_wall("insertion that never meets a wall", format!("{}[[wall]]\nmaterial = \"glass\"\nplane = {{ center = [0.0, 0.0, -0.5], normal = [0.0, 0.0, 1.0], size = [0.1, 0.1] }}\n", insertion("count = 3\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }").replace("min = [0.0, 0.0, 0.1], max = [0.1, 0.1, 0.2]", "min = [5.0, 5.0, 5.0], max = [5.1, 5.1, 5.1]")), "insert[1].region: lies outside the box that holds every wall")]
#[case::oscillation_below_two_steps_a_period(
    "oscillation below two steps a period",
    with_wall_motion(
        "{ kind = \"oscillate\", direction = [0.0, 0.0, 1.0], amplitude = 1e-3, frequency = 7e5 }"
    ),
    "wall[1].motion.frequency: 700000 Hz with dt = 1e-6 s: fewer than two cycles a period"
)]
fn what_may_be_intended_runs_with_a_warning(
    #[case] what: &str,
    #[case] src: String,
    #[case] warning: &str,
) {
    let case = parse(&src, Path::new("cases/good.toml")).unwrap();
    assert_eq!(case.warnings.len(), 1, "{what}: {:?}", case.warnings);
    assert!(
        case.warnings[0].starts_with(&format!("cases/good.toml: {warning}")),
        "{what}: {:?}",
        case.warnings
    );
}

/// The reference case warns of nothing, nor does an insertion above a wall that gravity
/// carries its balls to.
#[test]
fn a_case_that_runs_as_asked_warns_of_nothing() {
    let case = parse(GOOD, Path::new("cases/good.toml")).unwrap();
    assert!(case.warnings.is_empty(), "{:?}", case.warnings);
    let above = format!(
        "{}[[wall]]\nmaterial = \"glass\"\nplane = {{ center = [0.0, 0.0, -0.5], normal = [0.0, 0.0, 1.0], size = [0.1, 0.1] }}\n",
        insertion("count = 3\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }")
            .replace("[run]\nsteps = 10", "[run]\nsteps = 10\ngravity = [0.0, 0.0, -9.81]")
    );
    let case = parse(&above, Path::new("cases/good.toml")).unwrap();
    assert!(case.warnings.is_empty(), "{:?}", case.warnings);
}

/// At the end of a run: an insertion whose region was too full to place its balls, and a
/// measurement region that held nothing, are warnings naming the key.
#[test]
fn balls_still_pending_and_an_empty_region_are_warnings_at_the_end() {
    let src = format!(
        "{}[[measure]]\nregion = {{ box = {{ min = [5.0, 5.0, 5.0], max = [6.0, 6.0, 6.0] }} }}\n",
        insertion("count = 1000\nradius = { kind = \"uniform\", min = 0.002, max = 0.003 }")
            .replace("max = [0.1, 0.1, 0.2]", "max = [0.02, 0.02, 0.12]")
    );
    let case = parse(&src, Path::new("cases/good.toml")).unwrap();
    assert!(case.warnings.is_empty(), "{:?}", case.warnings);
    let sim = ballast::run::simulate(&case, None, &[], false, None).unwrap();
    let w = ballast::case::end_warnings(&case, &sim.model);
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].starts_with("cases/good.toml: insert[1]: ") && w[0].contains("balls still pending"),
        "{w:?}"
    );
    assert!(
        w[1].starts_with("cases/good.toml: measure[1].region: \"measure1\" held no body"),
        "{w:?}"
    );
}
