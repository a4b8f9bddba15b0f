"""The energy_balance check of every case (SPEC 5.1), kept in one place: the make_cases.py
scripts add it to the cases they write (`save`); the cases written by hand carry the same
check (`energy_check` of their file's stem), written into them when the check was introduced.
Edit this file, then run the scripts (and edit a hand-written case's check to match).

Every case judges the balance K + U + P + D - W (kinetic, strain, potential, dissipated, work)
to 1e-6 of its scale, the largest K + U + P, unless:
- SUBTRACT: the time integration error at the case's timestep, which the books measure
  (energy/integrator: the leapfrog integrator's own term, the trapezoidal rule's error on the
  normal springs at a contact's first and last cycle and on Hertz's curved force, and the
  difference between the integrator's pairing of each force with the steps around it at its
  own contact point and the contact model's pairing with its frame's increment), is above
  5e-7 of the scale: the balance less it is judged to 1e-6, and the report shows both;
- WIDER: another limit, measured and explained;
- NONE: the check does not apply.
"""

SUBTRACT = {
    "column_auto", "critical_between_fixed", "critical_chain", "critical_cubic_packing",
    "critical_large_cluster", "critical_oblique_pair", "critical_random_cluster",
    "disk_column_2d", "fig4a_many_facets", "fig4b_one_facet", "fig6_valley", "fig6_valley_pc",
    "fig8b_pleats_reduced", "fig9_hole", "fig9_kink_beyond", "fig9_reduced",
    "hysteretic_collision", "linear_dashpot_clamped", "linear_dashpot_collision",
    "one_pebble_ball", "one_pebble_clump", "rebound_box_coarse", "rebound_box_fine",
    "settle_box_clumps_generator_order", "settle_box_clumps_renumbered",
    "settle_box_frame_generator_order", "settle_box_frame_renumbered",
    "settle_box_generator_order", "settle_box_hertz_1k", "settle_box_hooke_1k",
    "settle_box_renumbered", "settle_box_renumbered_morton", "settle_on_fixed_layer",
    "settle_plane_oblique", "slipping_incline", "test1_glass", "test1_limestone",
    "test2_aluminium_alloy", "test2_magnesium_alloy", "test3_aluminium_oxide_e02",
    "test3_aluminium_oxide_e04", "test3_aluminium_oxide_e04_unclamped",
    "test3_aluminium_oxide_e06", "test3_aluminium_oxide_e08", "test3_aluminium_oxide_e10",
    "test3_cast_iron_e02", "test3_cast_iron_e04", "test3_cast_iron_e06", "test3_cast_iron_e08",
    "test3_cast_iron_e10", "test4_angle05", "test4_angle10", "test4_angle15", "test4_angle20",
    "test4_angle25", "test4_angle30", "test4_angle35", "test4_angle40", "tripod_rest",
    "two_disks_2d", "two_disks_3d",
}

WIDER = {
    # A proximity contact (seed 001) acts with the mean overlap of its members along their
    # overlap-weighted normal: a force that is not the gradient of its energy k U^2/2. The
    # books take its work from its power, so the balance closes; but it can give back more
    # than it took, which energy/dissipated shows as a fall.
    "fig6_valley_pc": dict(max_fall=3e-3, formula="max_fall 3e-3: a proximity contact (seed 001) acts with the mean overlap of its members along their overlap-weighted normal, a force that is not the gradient of its energy; the books take its work from its power, so the balance closes, but while the ball settles into the 90° valley it gives back 1.8e-3 of the scale more than it took (a fall of energy/dissipated)"),
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
    if stem in SUBTRACT:
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
