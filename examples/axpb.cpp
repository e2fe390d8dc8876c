// y = a*sin(x) + b over a million points; the kernel is the Python function in axpb.py.
#include "smelt.h"

#include <cstdio>

int main(int argc, char **argv) {
    smelt::Program prog = smelt::Program::from_file(argc > 1 ? argv[1] : "axpb.py");
    smelt::Elementwise axpb(prog, "axpb");
    const size_t n = 1000000;
    smelt::Array x = smelt::linspace(0.0, 1.0, n), y = smelt::zeros(n);
    axpb({x, y, 2.0, 1.0}); // compiled for (doublep, doublep, double, double) on first call
    std::vector<double> v = y.to_vector<double>();
    std::printf("y[0] = %.6f, y[n-1] = %.6f\n", v[0], v[n - 1]);
}
