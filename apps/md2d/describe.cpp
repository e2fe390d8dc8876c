// describe(): the resolved configuration in a few lines (md2d check, and the head of a run).
#include "common/domain/mpi_env.h"
#include "md2d/config.h"

#include <cstdarg>
#include <cstdio>

namespace smelt::apps::md2d {

namespace {

std::string format(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

} // namespace

std::string describe(const Md2dConfig &c) {
    const auto &sys = c.system;
    const auto &plan = sys.plan;
    const auto box = c.box();
    std::string s;
    s += "config       " + c.source.file + "\n";
    if (sys.lattice.kind == LatticeKind::Random)
        s += format("particles    %lld, random, min spacing %g, density %g\n", (long long)c.n(),
                    plan.spacing, double(c.n()) / (plan.region[0] * plan.region[1]));
    else
        s += format("particles    %lld, %s lattice %lld x %lld, spacing %g, region %g x %g\n",
                    (long long)c.n(), to_string(sys.lattice.kind), (long long)plan.nx,
                    (long long)plan.ny, plan.spacing, plan.region[0], plan.region[1]);
    s += format("box          %g x %g, %s", box[0], box[1], to_string(sys.boundary));
    if (!c.periodic())
        s += format(" (soft walls: stiffness %g, range %g)", sys.wall_stiffness, sys.wall_range);
    s += format("\nstart        T = %g, mass %g, seed %llu\n", sys.temperature, sys.mass,
                (unsigned long long)sys.seed);
    const auto &pot = c.potential;
    s += format("potential    lj: epsilon %g, sigma %g, r_cut %g, %s\n", pot.epsilon, pot.sigma,
                pot.r_cut, pot.shift ? "shifted" : "not shifted");
    s += format("integrator   velocity Verlet, dt %g, %lld steps (t = %g)\n", c.integrator.dt,
                (long long)c.integrator.steps, c.integrator.dt * double(c.integrator.steps));
    s += format("neighbours   %s, r_list %g (skin %g), rebuild %s", to_string(c.neighbor.mode),
                c.r_list(), c.neighbor.skin,
                c.neighbor.rebuild == Rebuild::EveryStep ? "every step"
                                                         : "when a particle moved > skin/2");
    if (c.neighbor.mode == NeighborMode::Binned) {
        CellGrid g = cell_grid(c);
        s += format(", %d x %d cells of %g x %g", g.ncx, g.ncy, g.cell_w, g.cell_h);
        if (g.per_r_list == 2) s += " (r_list / 2)";
        const bool half = c.neighbor.newton_on(c.backend == "cpu") && !mpi::distributed();
        if (half) s += ", half lists (Newton's third law)";
        if (!c.neighbor.lists_sorted(half)) s += ", rows in cell-visit order";
        if (c.neighbor.sort_interval > 0 && !mpi::distributed())
            s += format(", particles reordered by cell every %lld steps",
                        (long long)c.neighbor.sort_interval);
    }
    if (mpi::distributed()) {
        const auto d = domain_dims(c, mpi::size());
        s += format("\ndomain       %d x %d sub-boxes over %d MPI ranks, ghosts within %g", d[0],
                    d[1], mpi::size(), c.r_list());
    }
    return s + "\n" + describe_run(c);
}

} // namespace smelt::apps::md2d
