#include "thermo.h"

namespace smelt::apps {

int64_t degrees_of_freedom(int64_t n, int dim, bool momentum_conserved) {
    int64_t dof = dim * n - (momentum_conserved ? dim : 0);
    return dof > 0 ? dof : 0;
}

double temperature_from_ke(double ke, int64_t dof) {
    return dof > 0 ? 2.0 * ke / static_cast<double>(dof) : 0.0;
}

double virial_pressure(double ke, double virial, double volume, int dim) {
    return (2.0 * ke + virial) / (static_cast<double>(dim) * volume);
}

} // namespace smelt::apps
