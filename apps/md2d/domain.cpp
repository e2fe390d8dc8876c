#include "md2d/domain.h"

#include "common/domain/migration.h"
#include "common/domain/mpi_env.h"
#include "common/run_config.h"
#include "md2d/simulation.h"

#include <numeric>
#include <stdexcept>

namespace smelt::apps::md2d {

namespace {

smelt::Program halo_program(const smelt::Program &physics) {
    return smelt::Program::from_file(domain::halo_kernel_file(physics.name()));
}

} // namespace

Md2dDomain::Md2dDomain(const Md2dConfig &config, const smelt::Program &physics,
                       const smelt::Options &options)
    : config_(config), grid_(domain::CartGrid::make(mpi::rank(), domain_dims(config, mpi::size()),
                                                    {config.box()[0], config.box()[1], 1.0},
                                                    {config.periodic(), config.periodic(), false})),
      pack_(halo_program(physics), options), wrap_(physics, "wrap_positions", options) {
    // The config check names the key; this guards callers that bypass it.
    const std::string thin = domain::check_thickness(grid_, config.r_list(), 2);
    if (!thin.empty()) throw std::invalid_argument("domain.grid: " + thin);
    link_ = domain::DeviceLink::make(config.domain.transport, backend_of(options));
    halo_.set_link(link_.get());
}

void Md2dDomain::keep_owned(std::vector<double> &x, std::vector<double> &y, std::vector<double> &vx,
                            std::vector<double> &vy) {
    const auto box = config_.box();
    std::vector<double> ox, oy, ovx, ovy;
    std::vector<int32_t> ids;
    for (size_t i = 0; i < x.size(); ++i) {
        double w[2] = {x[i], y[i]};
        bool mine = true;
        for (int a = 0; a < 2 && mine; ++a) {
            int64_t image = 0;
            if (config_.periodic()) domain::wrap_on_host(w[a], image, box[size_t(a)]);
            mine = grid_.owner_coord(a, w[a]) == grid_.coords[size_t(a)];
        }
        if (!mine) continue;
        ox.push_back(x[i]);
        oy.push_back(y[i]);
        ovx.push_back(vx[i]);
        ovy.push_back(vy[i]);
        ids.push_back(int32_t(i));
    }
    x = std::move(ox);
    y = std::move(oy);
    vx = std::move(ovx);
    vy = std::move(ovy);
    id_ = smelt::Array::from_vector(ids, &pack_.backend());
}

bool Md2dDomain::needs_rebuild(const smelt::Array &x, const smelt::Array &y, int64_t n,
                               NeighborList &list) {
    double d2 = 0.0;
    if (!stale_) {
        const smelt::Array *owned[2] = {&x, &y};
        for (size_t a = 0; a < 2; ++a)
            if (n > 0)
                owned[a]->backend().copy(ext_[a].buffer(), 0, owned[a]->buffer(), 0,
                                         size_t(n) * dtype_size(owned[a]->dtype()));
        if (config_.neighbor.rebuild == Rebuild::Displacement)
            d2 = list.max_displacement2({ext_[0], ext_[1]});
    }
    // Every rank takes the same branch: stale_ and the rule are the same everywhere.
    d2 = mpi::max(d2);
    const double half = 0.5 * config_.neighbor.skin;
    return stale_ || config_.neighbor.rebuild == Rebuild::EveryStep || d2 > half * half;
}

int64_t Md2dDomain::rebuild(const std::vector<smelt::Array *> &owned, int64_t n) {
    const auto box = config_.box();
    // Into the box, so ownership is decided by the grid's cuts.
    if (config_.periodic() && n > 0) wrap_(n, {*owned[0], *owned[1], box[0], box[1]});
    std::vector<smelt::Array *> arrays = owned;
    arrays.push_back(&id_);
    n = domain::migrate(grid_, pack_, link_.get(), arrays, n);
    for (size_t a = 0; a < 2; ++a)
        ext_[a] = domain::regrow(*owned[a], size_t(n), size_t(n));
    halo_.build(grid_, pack_, config_.r_list(), ext_, {}, n, /*periodic_images=*/true);
    stale_ = false;
    return n;
}

NeighborListSpec local_neighbor_spec(const Md2dConfig &config) {
    NeighborListSpec s = neighbor_spec(config);
    s.periodic = false;
    return s;
}

} // namespace smelt::apps::md2d
