"""The VTK files are binary by default (raw arrays appended after the XML) and hold each
ball's spin, material and coordination, and the contact network as lines with their normal
and tangential force. Reference: an independent reader of VTK's appended raw format written
here with numpy (the layout VTK documents: `_`, then for each array its byte count as a UInt64
and its little-endian bytes), compared with the module's arrays at the same cycle.
"""

import re
from pathlib import Path

import numpy as np
import pytest

import ballast
from conftest import CASES, variant

TYPES = {"Float64": "<f8", "Int64": "<i8", "UInt8": "u1"}
ARRAY = re.compile(
    r'<DataArray type="(\w+)" Name="(\w+)"(?: NumberOfComponents="(\d+)")? '
    r'format="(appended|ascii)"(?: offset="(\d+)"/>|>([^<]*)</DataArray>)'
)


def read_vtk(path):
    """(xml, {name: array}) of a VTK XML file, binary appended or ASCII."""
    data = Path(path).read_bytes()
    k = data.find(b'<AppendedData encoding="raw">')
    xml = (data if k < 0 else data[:k]).decode()
    base = -1 if k < 0 else data.index(b"_", k) + 1
    arrays = {}
    for ty, name, comps, fmt, offset, text in ARRAY.findall(xml):
        if fmt == "appended":
            at = base + int(offset)
            size = int.from_bytes(data[at : at + 8], "little")
            a = np.frombuffer(data[at + 8 : at + 8 + size], dtype=TYPES[ty])
        else:
            a = np.array(text.split(), dtype=TYPES[ty])
        arrays[name] = a.reshape(-1, int(comps)) if comps else a
    return xml, arrays


def heap(tmp_path, fmt=None):
    reps = [(r"^duration = 1\.2$", "duration = 0.3"), (r"^count = 700$", "count = 150"),
            (r"^\[output\]$", "[output]\nvtk_every = 2500" + (f'\nvtk_format = "{fmt}"' if fmt else ""))]
    return variant(CASES / "heap" / "heap_mu_r_20.toml", tmp_path / "heap.toml", reps)


def test_binary_vtk_holds_the_state_the_module_reads(tmp_path):
    sim = ballast.Simulation.from_file(heap(tmp_path), out=tmp_path / "out")
    sim.run()
    vtk = tmp_path / "out" / "vtk"
    last = f"{sim.cycle:09}"
    xml, balls = read_vtk(vtk / f"balls_{last}.vtu")
    assert 'header_type="UInt64"' in xml and 'format="ascii"' not in xml
    order = np.argsort(balls["id"])  # the file is in the model's order, the module in id order
    assert np.array_equal(balls["id"][order], sim.ids())
    assert np.array_equal(balls["position"][order], sim.positions())
    assert np.array_equal(balls["radius"][order], sim.radii())
    assert np.array_equal(balls["velocity"][order], sim.velocities())
    assert np.array_equal(balls["spin"][order], sim.spins())
    assert np.array_equal(balls["material"][order], sim.materials())
    assert np.array_equal(balls["coordination"][order], sim.coordination())
    assert balls["coordination"].sum() > 0 and np.abs(balls["spin"]).max() > 0
    n = len(sim.ids())
    assert np.array_equal(balls["connectivity"], np.arange(n))
    assert np.array_equal(balls["types"], np.ones(n, dtype=np.uint8))

    xml, net = read_vtk(vtk / f"contacts_{last}.vtp")
    c = sim.contacts()
    m = len(c["id1"])
    assert m > 0 and f'NumberOfPoints="{2 * m}" NumberOfLines="{m}"' in xml
    for name in ("id1", "id2", "force", "normal_force", "tangential_force", "overlap"):
        assert np.array_equal(net[name], c[name]), name
    # each line runs from the first ball's centre to the second's
    pos = dict(zip(sim.ids().tolist(), sim.positions()))
    ends = net["position"].reshape(m, 2, 3)
    assert np.array_equal(ends[:, 0], np.array([pos[i] for i in c["id1"].tolist()]))
    assert np.array_equal(ends[:, 1], np.array([pos[i] for i in c["id2"].tolist()]))
    assert np.array_equal(net["offsets"], 2 * np.arange(1, m + 1))
    pvd = (vtk / "run.pvd").read_text()
    assert f'file="contacts_{last}.vtp"' in pvd


def test_ascii_vtk_holds_the_same_numbers(tmp_path):
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir(), b.mkdir()
    for d, fmt in ((a, "ascii"), (b, None)):
        sim = ballast.Simulation.from_file(heap(d, fmt), out=d / "out")
        sim.run()
    name = f"balls_{sim.cycle:09}.vtu"
    xml, text = read_vtk(a / "out" / "vtk" / name)
    assert "AppendedData" not in xml and 'format="ascii"' in xml
    _, raw = read_vtk(b / "out" / "vtk" / name)
    assert text.keys() == raw.keys()
    for k in raw:
        assert np.array_equal(text[k], raw[k]), k


def test_a_bad_vtk_format_is_refused(tmp_path):
    with pytest.raises(ballast.CaseError, match="vtk_format"):
        ballast.Simulation.from_file(heap(tmp_path, "xml"))
