// describe(): the resolved configuration in a few lines (vortex check, and the head of a run).
#include "vortex/config.h"

#include <cstdarg>
#include <cstdio>

namespace smelt::apps::vortex {

namespace {

std::string format(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

std::string initial_line(const VortexConfig &c) {
    const InitialConfig &ini = c.initial;
    const std::string at = format(" at (%g, %g)", ini.center[0], ini.center[1]);
    switch (ini.kind) {
    case InitialKind::Patch:
        return format("random %s patch, ", to_string(ini.shape)) +
               (ini.shape == Shape::Disc ? format("radius %g", ini.radius)
                                         : format("side %g", ini.side)) +
               at +
               format(", total circulation %g, spread %g, seed %llu", ini.total_circulation,
                      ini.circulation_spread, (unsigned long long)ini.seed);
    case InitialKind::Lattice:
        return format("%s lattice of %lld x %lld points, ", to_string(ini.shape),
                      (long long)ini.n_side, (long long)ini.n_side) +
               (ini.shape == Shape::Disc ? format("radius %g", ini.radius)
                                         : format("side %g", ini.side)) +
               at + format(", total circulation %g", ini.total_circulation);
    case InitialKind::LambOseen:
        return format("Lamb-Oseen vortex on %lld rings, core radius %g, extent %g core radii",
                      (long long)ini.rings, ini.core_radius, ini.extent) +
               at + format(", total circulation %g", ini.total_circulation);
    case InitialKind::Pair:
        return format("pair %g apart, circulations %g and %g", ini.separation, ini.circulations[0],
                      ini.circulations[1]) +
               at;
    case InitialKind::OppositePair:
        return format("opposite pair %g apart, circulations %g and %g", ini.separation,
                      ini.circulation, -ini.circulation) +
               at;
    case InitialKind::Ring:
        return format("ring of radius %g, circulation %g each, phase %g", ini.radius,
                      ini.circulation, ini.phase) +
               at +
               (ini.perturbation > 0 ? format(", radial perturbation %g (seed %llu)",
                                              ini.perturbation, (unsigned long long)ini.seed)
                                     : std::string());
    case InitialKind::Sheet:
        return format("Krasny sheet, amplitude %g, total circulation %g per period", ini.amplitude,
                      ini.total_circulation);
    case InitialKind::File:
        return "from " + ini.resolved_path +
               (ini.format == FileFormat::Csv
                    ? std::string(" (csv)")
                    : format(" (h5md, frame %lld)", (long long)ini.frame));
    }
    return "";
}

} // namespace

std::string describe(const VortexConfig &c) {
    std::string s;
    s += "config       " + c.source.file + "\n";
    s += format("vortices     %lld, ", (long long)c.n()) + initial_line(c) + "\n";
    const PhysicsConfig &ph = c.physics;
    s += "physics      ";
    s += ph.regularisation == Regularisation::Point
             ? std::string("point vortices")
             : format("%s blobs, delta %g", to_string(ph.regularisation), ph.delta);
    s += ph.periodic_x ? format(", periodic in x with period %g\n", ph.period)
                       : std::string(", unbounded\n");
    const IntegratorConfig &it = c.integrator;
    s += format("integrator   %s (order %d), dt %g, %lld steps (t = %g), %d velocity "
                "evaluations per step\n",
                to_string(it.kind), integrator_order(it.kind), it.dt, (long long)it.steps,
                it.dt * double(it.steps), evaluations_per_step(it.kind));
    const EvaluationConfig &ev = c.evaluation;
    s += "evaluation   ";
    s += ev.tiled ? format("tiled Kernel, work-groups of %lld", (long long)ev.tile)
                  : std::string("elementwise");
    s += ev.method == Method::Auto ? " (auto)\n" : "\n";
    return s + describe_run(c);
}

} // namespace smelt::apps::vortex
