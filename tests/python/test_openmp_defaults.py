# Importing smelt makes OpenMP's idle threads wait passively unless the user set OMP_WAIT_POLICY
# or GOMP_SPINCOUNT: seen from libgomp itself, which with OMP_DISPLAY_ENV=verbose prints at
# start-up the spin count it uses (0: passive; 300000: its own default).
import os
import subprocess
import sys

import pytest


def libgomp_settings(**env):
    full = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    full.update(env, OMP_DISPLAY_ENV="verbose")
    r = subprocess.run([sys.executable, "-c", "import smelt; assert smelt.HAVE_ENGINE"],
                       env=full, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stderr


def test_passive_by_default():
    assert "GOMP_SPINCOUNT = '0'" in libgomp_settings()


@pytest.mark.parametrize("env, shown", [
    ({"OMP_WAIT_POLICY": "active"}, "OMP_WAIT_POLICY = 'ACTIVE'"),
    ({"GOMP_SPINCOUNT": "1234"}, "GOMP_SPINCOUNT = '1234'"),
])
def test_the_users_setting_wins(env, shown):
    out = libgomp_settings(**env)
    assert shown in out
    assert "GOMP_SPINCOUNT = '0'" not in out
