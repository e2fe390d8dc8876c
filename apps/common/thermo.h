// Thermodynamics of particle systems: degrees of freedom, temperature and virial pressure (used
// by the MD apps to fill their observable columns, see observables.h).
#pragma once

#include <cstdint>

namespace smelt::apps {

// dim * n, less dim when the total momentum is conserved (periodic box) and was set to zero.
int64_t degrees_of_freedom(int64_t n, int dim, bool momentum_conserved);
// 2 KE / dof (k_B = 1); 0 when dof == 0.
double temperature_from_ke(double ke, int64_t dof);
// Virial pressure P = (2 KE + W) / (dim V), W = sum over pairs of r_ij . f_ij.
double virial_pressure(double ke, double virial, double volume, int dim);

} // namespace smelt::apps
