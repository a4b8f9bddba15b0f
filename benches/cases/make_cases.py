#!/usr/bin/env python3
"""Writes the settle-box cases of the peer benchmark (../../../shared/bench/SCENE.md; copied in
benches/peers/): N = 1,000, 10,000, 50,000, Hertz and Hooke variants. Run from this folder.

The 1,000-ball cases are also copied to cases/bench/ (run by `verify` and CI) with checks
against LIGGGHTS 3.8.0's final state (SCENE.md, section 8): contacts and mean height within 2 %."""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../cases"))
from energy_checks import save  # noqa: E402  (the verification copies' energy_balance check)

LIGGGHTS = {  # N, model: pp, nw, mean z (m), KE_trans (J)  (SCENE.md, section 8)
    (1000, "hertz"): (2090, 303, 6.3548e-3, 3.8e-9),
    (1000, "hooke"): (2031, 300, 6.3461e-3, 7.4e-9),
    (10000, "hertz"): (22217, 1737, 6.0135e-3, 6.2e-8),
    (10000, "hooke"): (21749, 1730, 6.0291e-3, 6.2e-8),
    (50000, "hertz"): (112953, 7129, 6.0464e-3, 3.1e-7),
    (50000, "hooke"): (109921, 7063, 6.0699e-3, 3.4e-7),
}
S = 2.5e-3
ZETA = -math.log(0.5) / math.sqrt(math.pi**2 + math.log(0.5) ** 2)
M = 2500.0 * 4.0 / 3.0 * math.pi * 1e-3**3
KN = 500.0
GN = 2.0 * ZETA * math.sqrt(KN * M / 2.0)

# Both models keep LIGGGHTS's own Coulomb rule (friction_limit = "spring": the history spring
# alone is held at mu F_n, the tangential dashpot added while it sticks), so that the scene is
# the one LIGGGHTS computes; ballast's default holds spring plus dashpot within mu F_n.
MODELS = {
    "hertz": '''[[contact]]
between = ["grain", "grain"]
model = "hertz-history"
friction = 0.5
restitution = 0.5
# LIGGGHTS's Coulomb rule (the history spring alone within mu F_n), to compare with it
friction_limit = "spring"
''',
    "hooke": f'''[[contact]]
between = ["grain", "grain"]
model = "hooke-history"
kn = {KN!r}
ks = {KN * 2.0 / 7.0!r}
gamma_n = {GN!r}
gamma_t = {GN * 2.0 / 7.0!r}
friction = 0.5
# LIGGGHTS's Coulomb rule (the history spring alone within mu F_n), to compare with it
friction_limit = "spring"
''',
}


# The same scene with the frame-based models (the seed's local contact frame), for their cost
# (`ballast bench --models`): the parameters of the scene where the model has them (Hertz's
# moduli, restitution 0.5, friction 0.5, k_t = 2/7 k_n), LIGGGHTS's Coulomb rule where the model
# offers it. Bench name (the case format's model name) -> file stem, contact block, what it is.
KT = KN * 2.0 / 7.0


# The scene's timestep and grain (SCENE.md), shared with make_drum.py.
TIMESTEP_AND_MATERIAL = """[timestep]
mode = "fixed"
dt = 1e-5

[material.grain]
density = 2500.0
young = 5.0e6
poisson = 0.3
"""


def contact(model, **keys):
    """A [[contact]] block between grains: the model and its keys in order (strings quoted)."""
    lines = ['[[contact]]', 'between = ["grain", "grain"]', f'model = "{model}"']
    lines += [f'{k} = "{v}"' if isinstance(v, str) else f"{k} = {v!r}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


SPRING = "spring"
FRAME_MODELS = {
    "hertz": ("hertz_frame", contact("hertz", friction=0.5, restitution=0.5, friction_limit=SPRING),
              "Hertz-Mindlin on the contact frame (E = 5 MPa, ν = 0.3, e = 0.5, μ = 0.5)"),
    "linear": ("linear", contact("linear", kn=KN, ks=KT, friction=0.5, damp_n=ZETA, damp_s=ZETA,
                                 friction_limit=SPRING),
               "PFC's linear model (kn = 500 N/m, ks = 2/7 kn, dashpots at the critical-damping ratio of e = 0.5, μ = 0.5)"),
    "linear-dashpot": ("linear_dashpot", contact("linear-dashpot", kn=KN, ks=KT, friction=0.5,
                                                 restitution=0.5, friction_limit=SPRING),
                       "the linear dashpot model (kn = 500 N/m, ks = 2/7 kn, e = 0.5, μ = 0.5)"),
    "hysteretic": ("hysteretic", contact("hysteretic", kn=KN, k_unload=4.0 * KN, ks=KT, friction=0.5),
                   "Walton-Braun's hysteretic model (kn = 500 N/m, unloading 4 kn: e = 0.5, ks = 2/7 kn, μ = 0.5)"),
    "linearbond": ("linearbond", contact("linearbond", kn=KN, ks=KT, friction=0.5),
                   "the linear bond model with no bond made (the balls start apart: frictional linear springs, kn = 500 N/m, ks = 2/7 kn, μ = 0.5, no damping, so the balls never settle)"),
}


def frame_case(n, model):
    """The settle-box scene of N balls with a frame-based model, for timing only (no checks)."""
    stem, block, what = FRAME_MODELS[model]
    text = case(n, "hertz", False)
    text = text.replace(f'name = "settle_box_hertz_{n // 1000}k"', f'name = "settle_box_{stem}_{n // 1000}k"')
    start = text.index('description = """')
    end = text.index('"""', start + len('description = """')) + 3
    description = (
        f'description = """The settle-box scene of the peer benchmark ({n:,} spheres, r = 1 mm, in a '
        f"closed box of six walls, 20,000 steps of 1e-5 s) with {what}, for the model's cost "
        '(`ballast bench --models`); no reference: LIGGGHTS has no such model."""'
    )
    text = text[:start] + description + text[end:]
    text = text.replace(MODELS["hertz"], block)
    assert block in text
    return text


def case(n, model, checks):
    lat = int(round(math.sqrt(n / 10)))
    nz = -(-n // (lat * lat))
    box = (lat * S, lat * S, nz * S)
    pp, nw, mz, ke = LIGGGHTS[(n, model)]
    text = f'''# Generated by benches/cases/make_cases.py: edit that script, not this file.
name = "settle_box_{model}_{n // 1000}k"
description = """The peer benchmark's settle-box scene (SCENE.md): {n:,} spheres (r = 1 mm, 2,500 kg/m³) on \\
a jittered {lat} x {lat} x {nz} lattice fall under gravity into a closed box of six walls and settle for 20,000 \\
steps of 1e-5 s; {"Hertz-Mindlin (E = 5 MPa, ν = 0.3, e = 0.5, μ = 0.5)" if model == "hertz" else "Hookean spring-dashpot (kn = 500 N/m, kt = 2/7 kn, absolute damping for e = 0.5, μ = 0.5)"} with a \\
tangential history spring and the normal force clamped at zero, as LIGGGHTS computes it. LIGGGHTS 3.8.0 ends \\
with {pp} sphere-sphere contacts, {nw} sphere-wall contacts and mean height {mz} m."""
[run]
steps = 20000
gravity = [0.0, 0.0, -9.81]
# the extents of two balls overlap within 2 x 0.1 mm, and the pairs are found again once a
# ball has moved 0.1 mm: LIGGGHTS's neighbour skin of 0.2 mm, rebuilt at half the skin
margin = 1e-4
# renumber the balls every 1,000 steps, in rows of cells (LAMMPS, on which LIGGGHTS is built,
# sorts its atoms by bins in rows every 1,000 steps by default)
sort_every = 1000
sort_order = "rows"

{TIMESTEP_AND_MATERIAL}
{MODELS[model]}
[[generate]]
kind = "settle-box"
count = {n}
material = "grain"

[[wall]]
name = "box"
material = "grain"
box = {{ min = [0.0, 0.0, 0.0], max = [{box[0]!r}, {box[1]!r}, {box[2]!r}] }}

[output]
every = 1000
series = ["contacts/balls", "contacts/walls", "balls/mean_pos", "energy/kinetic"]
'''
    if checks:
        # NOTE: at N = 1,000 the contact count is judged within 3 %, not the 2 %: the
        # packing is chaotic and one run is one sample. Six other jitter seeds of the Hertz scene
        # give 2105 to 2135 contacts (ours for SCENE.md's seed: 2108, +0.9 % on LIGGGHTS's 2090,
        # with the balls renumbered every 1,000 steps; 2135, +2.2 %, in the generator's order;
        # Yade's run of the same scene: 2129, +1.9 %). The 2 % target is judged at N = 10,000 and
        # 50,000 on the Performance page (`ballast bench`), where the spread is smaller.
        tol = 0.03 if n == 1000 else 0.02
        # NOTE: the sphere-wall count at N = 1,000 (about 300) spreads more. Ten runs of each
        # model with the timestep changed by 1e-8 to 1e-7 of itself (trajectories that part
        # from the first step) ended with 294 to 312 contacts (Hooke; LIGGGHTS 300) and 295 to
        # 307 (Hertz; LIGGGHTS 303), with the wall geometry of round 10 and with that of round
        # 11 alike: up to +4.0 %, so 3 % failed one run in ten by chance. 5 % at N = 1,000.
        wall_tol = 0.05 if n == 1000 else 0.03
        text += f'''
[[check]]
kind = "final_value"
series = "contacts/balls"
expected = {float(pp)!r}
tolerance = {tol}
formula = "LIGGGHTS 3.8.0 on the same scene: {pp} sphere-sphere contacts after 20,000 steps (SCENE.md); the packing is chaotic, so agreement in distribution, not bit for bit{' (N = 1,000: other jitter seeds give a spread of 1.4 %, and Yade lands 1.9 % away, so 3 %)' if n == 1000 else ''}"

[[check]]
kind = "final_value"
series = "balls/mean_pos.z"
expected = {mz!r}
tolerance = 0.02
formula = "LIGGGHTS 3.8.0: mean height {mz} m after 20,000 steps (SCENE.md)"

[[check]]
kind = "final_value"
series = "contacts/walls"
expected = {float(nw)!r}
tolerance = {wall_tol}
formula = "LIGGGHTS 3.8.0: {nw} sphere-wall contacts after 20,000 steps (SCENE.md){' (N = 1,000: about 300 contacts, whose chaotic spread is wider: ten runs with the timestep changed by 1e-8 to 1e-7 of itself end with 294 to 312 for Hooke and 295 to 307 for Hertz, up to 4 % from LIGGGHTS, so 5 %)' if n == 1000 else ''}"
'''
    return text


# The renumbering of the balls (`[run] sort_every`), in each of its two orders, against the
# same scene in the generator's order: the first 3,000 steps of the Hertz 1k scene (the balls
# land on the floor and on each other), recorded every 100 steps, must agree to round-off.
GENERATOR_ORDER = "settle_box_generator_order"
TWINS = {
    # name: (order or None, how the balls are numbered)
    "settle_box_renumbered": (
        "rows",
        "renumbered every 500 steps in rows of cells ([run] sort_every = 500, "
        'sort_order = "rows", src/detect/sort.rs)',
    ),
    "settle_box_renumbered_morton": (
        "morton",
        "renumbered every 500 steps along the Z curve ([run] sort_every = 500, "
        'sort_order = "morton", src/detect/sort.rs)',
    ),
    GENERATOR_ORDER: (None, "kept in the generator's order (no [run] sort_every)"),
}


# The same pair with Hertz-Mindlin on the contact frame: a contact whose balls swap roles turns
# its frame and its shear force over (`Frame::swap_pieces`).
FRAME_GENERATOR_ORDER = "settle_box_frame_generator_order"
FRAME_TWINS = {
    "settle_box_frame_renumbered": (
        "rows",
        "renumbered every 500 steps in rows of cells ([run] sort_every = 500, "
        'sort_order = "rows", src/detect/sort.rs)',
    ),
    FRAME_GENERATOR_ORDER: (None, "kept in the generator's order (no [run] sort_every)"),
}


# The same pair with 60 two-pebble clumps lying on the floor under the balls (the box's floor
# lowered by 3 mm): a clump's pebbles are renumbered as one block (src/detect/sort.rs).
CLUMP_GENERATOR_ORDER = "settle_box_clumps_generator_order"
CLUMP_TWINS = {
    "settle_box_clumps_renumbered": (
        "rows",
        "renumbered every 500 steps in rows of cells, each clump's pebbles as one block ([run] "
        'sort_every = 500, sort_order = "rows", src/detect/sort.rs)',
    ),
    CLUMP_GENERATOR_ORDER: (None, "kept in the generator's order (no [run] sort_every)"),
}


def with_clumps(text):
    """The 1k scene with its floor at z = -3 mm and 60 clumps (two pebbles of r = 1 mm, 1.2 mm
    apart along x) lying 0.25 mm above it, 6 x 10 on a 4 x 2.5 mm grid, under the balls."""
    old = "box = { min = [0.0, 0.0, 0.0], max = [0.025, 0.025, 0.025] }"
    assert old in text
    text = text.replace(old, "box = { min = [0.0, 0.0, -0.003], max = [0.025, 0.025, 0.025] }")
    clumps = []
    for i in range(6):
        for j in range(10):
            x, y = 0.003 + 0.004 * i, 0.00125 + 0.0025 * j
            clumps.append(f"""[[clump]]
pos = [{x!r}, {y!r}, -0.00175]
material = "grain"
pebbles = [ {{ offset = [-0.0006, 0.0, 0.0], radius = 0.001 }}, {{ offset = [0.0006, 0.0, 0.0], radius = 0.001 }} ]
""")
    return text.replace("[[wall]]", "\n".join(clumps) + "\n[[wall]]", 1)


def twin(name, twins=TWINS, generator=GENERATOR_ORDER, frame=False, clumps=False):
    order, how = twins[name]
    others = [generator] if order else [t for t in twins if t != generator]
    text = case(1000, "hertz", False)
    if frame:
        text = text.replace(MODELS["hertz"], FRAME_MODELS["hertz"][1])
        assert FRAME_MODELS["hertz"][1] in text
    if clumps:
        text = with_clumps(text)
    text = text.replace('name = "settle_box_hertz_1k"', f'name = "{name}"')
    start = text.index('description = """')
    end = text.index('"""', start + len('description = """')) + 3
    against = " and ".join(f"{o}.toml" for o in others)
    description = (
        'description = """The first 3,000 steps of the settle-box scene (1,000 spheres, '
        f"Hertz-Mindlin {'on the contact frame' if frame else 'with history'}, six walls{', 60 two-pebble clumps lying on a floor lowered by 3 mm' if clumps else ''}: the balls fall and land on the floor{' and the clumps' if clumps else ''} and on each "
        f"other), with the balls {how}. Renumbering changes only the order in which each ball's "
        "contact forces are summed, so the kinetic energy, the mean height and the contact count "
        f'must be those of {against} to round-off."""'
    )
    text = text[:start] + description + text[end:]
    text = text.replace("steps = 20000", "steps = 3000")
    comment = text[text.index("# renumber the balls"):text.index("sort_every = 1000")]
    text = text.replace(comment, "")
    numbering = f'sort_every = 500\nsort_order = "{order}"\n' if order else ""
    text = text.replace('sort_every = 1000\nsort_order = "rows"\n', numbering)
    text = text.replace("every = 1000", "every = 100")
    for other in others:
        for series, tol in (("energy/kinetic", 1e-9), ("balls/mean_pos.z", 1e-12), ("contacts/balls", 0.0)):
            text += f'''
[[check]]
kind = "same_series"
series = "{series}"
case = "{other}.toml"
tolerance = {tol!r}
'''
    return text


def main():
    for n in (1000, 10000, 50000):
        for model, (stem, _, _) in FRAME_MODELS.items():
            open(f"settle_box_{stem}_{n // 1000}k.toml", "w").write(frame_case(n, model))
        for model in ("hertz", "hooke"):
            name = f"settle_box_{model}_{n // 1000}k.toml"
            open(name, "w").write(case(n, model, True))
            if n == 1000:
                # (the verification copy only: energy books take the general force loop, which
                # the benchmark must not measure)
                save("../../cases/bench/" + name, case(n, model, True))
    for name in TWINS:
        save(f"../../cases/bench/{name}.toml", twin(name))
    for name in FRAME_TWINS:
        save(f"../../cases/bench/{name}.toml", twin(name, FRAME_TWINS, FRAME_GENERATOR_ORDER, True))
    for name in CLUMP_TWINS:
        save(f"../../cases/bench/{name}.toml", twin(name, CLUMP_TWINS, CLUMP_GENERATOR_ORDER, clumps=True))


if __name__ == "__main__":
    main()
