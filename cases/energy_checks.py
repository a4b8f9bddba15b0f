"""The energy_balance check of every case (SPEC 5.1), kept in one place: the make_cases.py
scripts add it to the cases they write (`save`); the cases written by hand carry the same
check (`energy_check` of their file's stem), written into them when the check was introduced.
Edit this file, then run the scripts (and edit a hand-written case's check to match).

Every case judges the balance K + U + P + D - W (kinetic, strain, potential, dissipated, work)
to 1e-6 of its scale, the largest K + U + P, unless:
- SUBTRACT: the time integration error at the case's timestep, which the books measure
  (energy/integrator: the leapfrog integrator's own term and the trapezoidal rule's error on the
  normal springs at a contact's first and last cycle), is above 5e-7 of the scale: the balance
  less it is judged to 1e-6, and the report shows both;
- WIDER: a tolerance measured and explained;
- NONE: the check does not apply.
"""

SUBTRACT = {
    # coarse steps at contact formation and separation (Hertz: also the curvature of the force)
    "test1_glass", "test1_limestone", "test2_aluminium_alloy", "test2_magnesium_alloy",
    "test3_aluminium_oxide_e02", "test3_aluminium_oxide_e04", "test3_aluminium_oxide_e04_unclamped",
    "test3_aluminium_oxide_e06", "test3_aluminium_oxide_e08", "test3_aluminium_oxide_e10",
    "test3_cast_iron_e02", "test3_cast_iron_e04", "test3_cast_iron_e06", "test3_cast_iron_e08",
    "test3_cast_iron_e10", "test4_angle05", "test4_angle10", "test4_angle15", "test4_angle20",
    "test4_angle25", "test4_angle30", "test4_angle35", "test4_angle40",
    "column_auto", "critical_between_fixed", "critical_chain", "critical_cubic_packing",
    "critical_large_cluster", "critical_oblique_pair", "critical_random_cluster",
    "disk_column_2d", "fig4a_many_facets", "fig4b_one_facet", "fig6_valley", "fig8b_pleats_reduced",
    "fig9_hole", "hysteretic_collision", "linear_dashpot_clamped", "linear_dashpot_collision",
    "rebound_box_coarse", "rebound_box_fine", "settle_plane_oblique", "tripod_rest",
}

# The books pair each tangential spring force with the whole cycle's displacement at that
# cycle's contact point; the integrator pairs it with half the step on each side, at its own
# contact point. Where the contact point moves relative to the ball (a ball that rolls while its
# overlap changes, a contact whose normal turns), the two differ by a term of first order in dt.
ROLLING = (
    "the balance less energy/integrator is judged; what remains comes from the tangential "
    "springs of rolling, bouncing balls: the books pair each spring force with the whole "
    "cycle's displacement at that cycle's contact point, the integrator with half the step on "
    "each side at its own contact point, and where the contact point moves relative to the "
    "ball the two differ at first order in dt"
)

WIDER = {
    "one_pebble_ball": dict(tolerance=1e-5, formula=ROLLING + " (measured: 2.75e-6, 1.38e-6 and 6.9e-7 of the scale at dt = 1e-5, 5e-6 and 2.5e-6 s)"),
    "one_pebble_clump": dict(tolerance=1e-5, formula=ROLLING + " (measured on one_pebble_ball: 2.75e-6, 1.38e-6 and 6.9e-7 of the scale at dt = 1e-5, 5e-6 and 2.5e-6 s)"),
    "settle_on_fixed_layer": dict(tolerance=1e-5, formula=ROLLING + " (measured: 3.3e-6 of the scale at dt = 5e-6 s, 14 cycles per contact)"),
    "settle_box_hertz_1k": dict(tolerance=3e-5, formula=ROLLING + " (measured on the first 3,000 steps: 7.5e-6 and 3.7e-6 of the scale at dt = 1e-5 and 5e-6 s; 1.2e-5 over the whole run)"),
    "settle_box_hooke_1k": dict(tolerance=3e-5, formula=ROLLING + " (measured on the Hertz scene's first 3,000 steps: 7.5e-6 and 3.7e-6 of the scale at dt = 1e-5 and 5e-6 s; 8.1e-6 over this run)"),
    "settle_box_generator_order": dict(tolerance=3e-5, formula=ROLLING + " (measured: 7.5e-6 and 3.7e-6 of the scale at dt = 1e-5 and 5e-6 s)"),
    "settle_box_renumbered": dict(tolerance=3e-5, formula=ROLLING + " (measured: 7.5e-6 and 3.7e-6 of the scale at dt = 1e-5 and 5e-6 s)"),
    "settle_box_renumbered_morton": dict(tolerance=3e-5, formula=ROLLING + " (measured: 7.5e-6 and 3.7e-6 of the scale at dt = 1e-5 and 5e-6 s)"),
    # A proximity contact (seed 001) acts with the mean overlap of its members along their
    # overlap-weighted normal: a force that is not the gradient of its energy k U^2/2. The
    # books take its work from its power, so the balance closes; but it can give back more
    # than it took, which energy/dissipated shows as a fall.
    "fig6_valley_pc": dict(max_fall=3e-3, formula="max_fall 3e-3: a proximity contact (seed 001) acts with the mean overlap of its members along their overlap-weighted normal, a force that is not the gradient of its energy; the books take its work from its power, so the balance closes (1.3e-10 of the scale less the integration error), but while the ball settles into the 90° valley it gives back 1.8e-3 of the scale more than it took (a fall of energy/dissipated)"),
    "fig7_rough_pc": dict(max_fall=1e-4, formula="max_fall 1e-4: a proximity contact (seed 001) acts with the mean overlap of its members along their overlap-weighted normal, a force that is not the gradient of its energy; the books take its work from its power, so the balance closes, but while the ball oscillates on the rough floor it gives back up to 3.6e-5 of the scale more than it took (a fall of energy/dissipated)"),
}

NONE = {
    # no ball: nothing moves but the wall
    "wall_spin",
    # timestep scaling: fictitious inertial masses, no energy balance (the check refuses them)
    "column_scaled", "column_scaled_bound", "tripod_rest_scaled",
}


def energy_check(stem):
    """The [[check]] table of the case whose file is `stem`.toml ('' when none applies)."""
    if stem in NONE:
        return ""
    keys = {"tolerance": 1e-6}
    if stem in SUBTRACT or stem in WIDER:
        keys["subtract_integrator"] = True
    keys.update(WIDER.get(stem, {}))
    lines = ["", "[[check]]", 'kind = "energy_balance"']
    for k, v in keys.items():
        if isinstance(v, bool):
            lines.append(f"{k} = {'true' if v else 'false'}")
        elif isinstance(v, str):
            lines.append(f'{k} = "{v}"')
        else:
            lines.append(f"{k} = {v!r}")
    return "\n".join(lines) + "\n"


def save(path, text):
    """Writes a generated case with its energy check (before its golden check, if any)."""
    import os
    stem = os.path.splitext(os.path.basename(path))[0]
    check = energy_check(stem)
    golden = '\n[[check]]\nkind = "golden"\n'
    if check and golden in text:
        text = text.replace(golden, check + golden)
    else:
        text = text + check
    open(path, "w").write(text)
