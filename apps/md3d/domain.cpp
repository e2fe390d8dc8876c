#include "md3d/domain.h"

#include "common/domain/migration.h"
#include "common/domain/mpi_env.h"
#include "common/kernel_file.h"
#include "common/run_config.h"

#include <cmath>

namespace smelt::apps::md3d {

namespace {

smelt::Program halo_program(const smelt::Program &physics) {
    return smelt::Program::from_file(domain::halo_kernel_file(physics.name()));
}

} // namespace

Md3dDomain::Md3dDomain(const Md3dConfig &config, const smelt::Program &physics,
                       const smelt::Options &options)
    : config_(config),
      grid_(domain::CartGrid::make(
          mpi::rank(), domain_dims(config, mpi::size()), config.system.box,
          {config.axis_periodic(0), config.axis_periodic(1), config.axis_periodic(2)})),
      local_mask_(domain::local_periodic_mask(grid_, config.periodic_mask())),
      halo_kernels_(halo_program(physics)), pack_(halo_kernels_, options),
      split_(halo_kernels_, options) {
    // The config check names the key; this guards callers that bypass it.
    const std::string thin = domain::check_thickness(grid_, config.r_list());
    if (!thin.empty()) throw std::invalid_argument("domain.grid: " + thin);
    link_ = domain::DeviceLink::make(config.domain.transport, backend_of(options));
    halo_.set_link(link_.get());
}

void Md3dDomain::keep_owned(HostState &s, std::vector<int32_t> &ids) const {
    HostState out;
    out.step = s.step;
    out.time = s.time;
    out.heat = s.heat;
    std::vector<int32_t> kept;
    for (size_t i = 0; i < ids.size(); ++i) {
        bool mine = true;
        for (int a = 0; a < 3 && mine; ++a) {
            double x = s.position[size_t(a)][i];
            int64_t image = 0;
            if (config_.axis_periodic(a)) wrap_on_host(x, image, config_.system.box[size_t(a)]);
            mine = grid_.owner_coord(a, x) == grid_.coords[size_t(a)];
        }
        if (!mine) continue;
        for (size_t a = 0; a < 3; ++a) {
            out.position[a].push_back(s.position[a][i]);
            out.velocity[a].push_back(s.velocity[a][i]);
            out.image[a].push_back(s.image[a][i]);
        }
        out.species.push_back(s.species[i]);
        kept.push_back(ids[i]);
    }
    s = std::move(out);
    ids = std::move(kept);
}

bool Md3dDomain::needs_rebuild(const std::array<smelt::Array, 3> &pos, int64_t n,
                               NeighborList &list) {
    double d2 = 0.0;
    if (!stale_) {
        for (size_t a = 0; a < 3; ++a)
            if (n > 0)
                pos[a].backend().copy(ext_[a].buffer(), 0, pos[a].buffer(), 0,
                                      size_t(n) * dtype_size(pos[a].dtype()));
        if (config_.neighbor.rebuild == Rebuild::Displacement)
            d2 = list.max_displacement2({ext_[0], ext_[1], ext_[2]});
    }
    // Every rank takes the same branch: stale_ and the rule are the same everywhere.
    d2 = mpi::max(d2);
    if (stale_ || config_.neighbor.rebuild == Rebuild::EveryStep) return true;
    // As a serial run's NeighborList::update() decides: the largest displacement of float32
    // positions is a float32, which converts to double and back exactly.
    return list.past_limit(d2, ext_[0].dtype());
}

int64_t Md3dDomain::migrate(const std::vector<smelt::Array *> &owned, int64_t n) {
    return domain::migrate(grid_, pack_, link_.get(), owned, n);
}

void Md3dDomain::build_halo(const std::array<smelt::Array, 3> &pos, const smelt::Array &typ,
                            int64_t n) {
    for (size_t a = 0; a < 3; ++a)
        ext_[a] = domain::regrow(pos[a], size_t(n), size_t(n));
    ext_typ_ = domain::regrow(typ, size_t(n), size_t(n));
    halo_.build(grid_, pack_, config_.r_list(), ext_, {&ext_typ_}, n);
    stale_ = false;
}

} // namespace smelt::apps::md3d
