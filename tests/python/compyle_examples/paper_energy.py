# Compyle SciPy 2020 paper, "Reductions": total energy with a map function, as written (the data
# set-up is the test's).
from smelt.api import Reduction, annotate, wrap
import numpy as np

n = 500
vx, vy, pe = (np.random.random(n) for _ in range(3))
num_particles = n
vx, vy, pe = wrap(vx, vy, pe, backend=backend)

@annotate
def calculate_energy(i, vx, vy, pe, num_particles):
    ke = 0.5 * (vx[i] * vx[i] + vy[i] * vy[i])
    return pe[i] + ke

energy_calc = Reduction('a+b',
                        map_func=calculate_energy,
                        backend=backend)
total_energy = energy_calc(vx, vy, pe, num_particles)
