// describe(): the resolved configuration in a few lines (md3d check, and the head of a run).
#include "common/domain/mpi_env.h"
#include "md3d/config.h"

#include <cstdarg>
#include <cstdio>

namespace smelt::apps::md3d {

namespace {

std::string format(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    char buf[512];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return buf;
}

std::string particles_line(const Md3dConfig &c) {
    const auto &sys = c.system;
    const auto &plan = sys.plan;
    if (sys.from_file) {
        const auto &f = *sys.from_file;
        return format("particles    %lld, from %s frame %lld of %lld (step %lld)%s\n",
                      (long long)c.n(), f.path.c_str(), (long long)f.frame_index,
                      (long long)f.frames, (long long)f.step, f.continue_run ? ", continued" : "");
    }
    if (sys.lattice.kind == LatticeKind::Random)
        return format("particles    %lld, random, min spacing %g, density %g\n", (long long)c.n(),
                      plan.spacing,
                      double(c.n()) / (plan.region[0] * plan.region[1] * plan.region[2]));
    return format("particles    %lld, %s lattice %lld x %lld x %lld, lattice constant %g, region "
                  "%g x %g x %g\n",
                  (long long)c.n(), to_string(sys.lattice.kind), (long long)plan.nx,
                  (long long)plan.ny, (long long)plan.nz, plan.spacing, plan.region[0],
                  plan.region[1], plan.region[2]);
}

} // namespace

std::string describe(const Md3dConfig &c) {
    const auto &sys = c.system;
    std::string s;
    s += "config       " + c.source.file + "\n";
    s += particles_line(c);
    s += "types       ";
    for (int a = 0; a < c.ntypes(); ++a)
        s += format(" %s: %lld (mass %g)%s", sys.types[size_t(a)].c_str(),
                    (long long)sys.counts[size_t(a)], sys.masses[size_t(a)],
                    a + 1 < c.ntypes() ? "," : "");
    s += format("\nbox          %g x %g x %g, %s %s %s", sys.box[0], sys.box[1], sys.box[2],
                to_string(sys.boundary[0]), to_string(sys.boundary[1]), to_string(sys.boundary[2]));
    if (!c.all_periodic())
        s += format(" (soft walls: stiffness %g, range %g)", sys.wall_stiffness, sys.wall_range);
    if (sys.temperature)
        s += format("\nstart        T = %g, seed %llu\n", *sys.temperature,
                    (unsigned long long)sys.seed);
    else
        s += "\nstart        velocities of the file\n";
    const auto &pot = c.potential;
    s += "potential    lj";
    for (int a = 0; a < c.ntypes(); ++a)
        for (int b = a; b < c.ntypes(); ++b) {
            const PairParameters &p = c.pair(a, b);
            if (c.ntypes() > 1)
                s += format(" %s-%s", sys.types[size_t(a)].c_str(), sys.types[size_t(b)].c_str());
            s += format(" epsilon %g, sigma %g, r_cut %g;", p.epsilon, p.sigma, p.r_cut);
        }
    s += format(" %s%s\n", pot.shift ? "shifted" : "not shifted",
                pot.tail ? ", tail corrections" : "");
    const auto &in = c.integrator;
    s += format("integrator   %s, dt %g, %lld steps (t = %g)", to_string(in.kind), in.dt,
                (long long)in.steps, in.dt * double(in.steps));
    if (in.kind == IntegratorKind::Langevin)
        s += format(", kT %g, gamma %g, seed %llu", in.kT, in.gamma, (unsigned long long)in.seed);
    if (in.kind == IntegratorKind::Bussi)
        s += format(", kT %g, tau %g, seed %llu", in.kT, in.tau, (unsigned long long)in.seed);
    s += format("\nneighbours   %s, r_list %g (skin %g), rebuild %s", to_string(c.neighbor.mode),
                c.r_list(), c.neighbor.skin,
                c.neighbor.rebuild == Rebuild::EveryStep ? "every step"
                                                         : "when a particle moved > skin/2");
    if (c.neighbor.mode == NeighborMode::Binned) {
        CellGrid g = cell_grid(c);
        s += format(", %d x %d x %d cells", g.cells[0], g.cells[1], g.cells[2]);
        if (g.per_r_list == 2) s += " of r_list / 2";
        if (c.neighbor.sort_interval > 0)
            s += format(mpi::distributed()
                            ? ", owned particles reordered by cell at a rebuild every %lld steps"
                            : ", particles reordered by cell every %lld steps",
                        (long long)c.neighbor.sort_interval);
        const bool half = c.neighbor.newton_on(c.backend == "cpu");
        s += c.neighbor.lists_sorted(c.backend == "cpu", half) ? ", lists in index order"
                                                               : ", lists in cell order";
        if (half)
            s += mpi::distributed() ? ", half lists (Newton's third law) with the ghosts' rows"
                                    : ", half lists (Newton's third law)";
    }
    const int lanes = c.neighbor.lanes_for(c.backend == "cpu", c.n() / mpi::size());
    if (lanes > 1) s += format(", %d GPU threads per particle in the force loop", lanes);
    if (mpi::distributed()) {
        const auto d = domain_dims(c, mpi::size());
        s += format("\ndomain       %d x %d x %d sub-boxes over %d MPI ranks, ghosts within %g",
                    d[0], d[1], d[2], mpi::size(), c.r_list());
        // As the Simulation decides (domain.transport, domain.overlap); auto's choice of NCCL
        // is made at the start, over every rank, and named in the run's summary.
        const domain::Transport t = c.domain.transport;
        if (c.backend == "cuda" && t == domain::Transport::Nccl)
            s += ", halo refresh device to device (NCCL)";
        else if (c.backend == "cuda" && t == domain::Transport::Auto)
            s += ", halo refresh device to device (NCCL) where each rank has its own GPU";
        if (c.domain.overlap && c.backend != "cpu" &&
            !(c.backend == "cuda" && t == domain::Transport::Nccl))
            s += t == domain::Transport::Auto && c.backend == "cuda"
                     ? ", else overlapped with the interior forces"
                     : ", halo refresh overlapped with the interior forces";
    }
    s += "\n" + describe_run(c);
    if (c.output_force) s += "frames       with forces\n";
    return s;
}

} // namespace smelt::apps::md3d
