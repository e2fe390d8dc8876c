"""CPython reference values for the vortex engine tests (tests/apps/vortex_engine_test.cpp).

    vortex_reference.py JOBS.json

JOBS.json is a list of {"name": str, "config": YAML text, "steps": int}. For each job the config
is resolved by validation/vortex_common.py, its initial state built (vortex_common.initial_state:
the README's definitions and std::mt19937_64 draws) and run for `steps` steps by PySim
(physics.py in CPython, the driver's stage sequence). Prints one line per array, the values as
float.hex() so they cross over exactly:

    NAME.initial.x|y|gamma V...        the initial state
    NAME.step<S>.x|y V...              positions after step S (S = 1..steps)
    NAME.obs<S> circulation impulse_x impulse_y angular_impulse hamiltonian   (S = 0..steps)
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "validation"))

import yaml  # noqa: E402

import vortex_common as V  # noqa: E402


def line(name, values):
    print(name + " " + " ".join(float(v).hex() for v in values))


def main(argv):
    jobs_path = Path(argv[1])
    for job in json.loads(jobs_path.read_text()):
        cfg = V.resolve(yaml.safe_load(job["config"]))
        cfg["_dir"] = str(jobs_path.resolve().parent)
        x, y, g = V.initial_state(cfg)
        name = job["name"]
        line(name + ".initial.x", x)
        line(name + ".initial.y", y)
        line(name + ".initial.gamma", g)
        steps = int(job.get("steps", 0))
        if steps == 0:
            continue
        it = cfg["integrator"]
        sim = V.PySim(x, y, g, V.physics_args(cfg), it["kind"], float(it["dt"]))
        line(name + ".obs0", sim.observables().values())
        for s in range(1, steps + 1):
            sim.step()
            line("%s.step%d.x" % (name, s), sim.x)
            line("%s.step%d.y" % (name, s), sim.y)
            line("%s.obs%d" % (name, s), sim.observables().values())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
