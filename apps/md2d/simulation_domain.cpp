// The Simulation's domain-decomposition paths (md2d/domain.h): the neighbour update with
// migration and ghosts, and the outputs gathered on rank 0. The serial paths are in
// simulation.cpp; these run only on more than one MPI rank.
#include "common/domain/gather.h"
#include "common/domain/mpi_env.h"
#include "md2d/domain.h"
#include "md2d/simulation.h"

#include <cstdio>

namespace smelt::apps::md2d {

void Simulation::update_domain() {
    if (!domain_->needs_rebuild(x_, y_, n_local_, neighbors_)) {
        domain_->refresh();
        return;
    }
    // Every per-particle array whose values outlive this call; the forces, energies and virials
    // are written afresh after it.
    n_local_ = domain_->rebuild({&x_, &y_, &vx_, &vy_}, n_local_);
    for (Array *a : {&fx_, &fy_, &pe_, &vir_})
        if (int64_t(a->size()) != n_local_) *a = zeros(size_t(n_local_), real_, backend_);
    const auto &ext = domain_->ext();
    neighbors_.resize(domain_->total());
    neighbors_.set_rows(n_local_); // the forces read the owned particles' rows only
    neighbors_.build({ext[0], ext[1]});
}

std::string Simulation::domain_summary() const {
    const domain::Halo &h = domain_->halo();
    char line[200];
    std::snprintf(line, sizeof line, "rank %d: %lld owned, %lld ghosts, %.1f kB sent per step (%s)",
                  mpi::rank(), (long long)h.owned(), (long long)h.ghosts(),
                  double(h.bytes_sent()) / 1e3,
                  h.linked() ? "device to device, NCCL" : "via the host");
    return line;
}

namespace {

// This rank's particles: ids, positions (wrapped on a periodic box, as the serial run's drift
// wraps them), then `more` columns.
domain::Columns local_columns(const Md2dConfig &config, const std::vector<int32_t> &ids,
                              std::vector<std::vector<double>> pos,
                              std::vector<std::vector<double>> more) {
    domain::Columns c;
    c.ids.assign(ids.begin(), ids.end());
    if (config.periodic())
        for (size_t a = 0; a < 2; ++a)
            for (double &v : pos[a]) {
                int64_t image = 0;
                domain::wrap_on_host(v, image, config.box()[a]);
            }
    c.reals = std::move(pos);
    for (auto &m : more)
        c.reals.push_back(std::move(m));
    return c;
}

} // namespace

std::vector<Field> Simulation::gathered_frame() {
    const domain::Columns g = domain::gather_by_id(
        local_columns(config_, domain_->ids().to_vector<int32_t>(), {host(x_), host(y_)},
                      {host(vx_), host(vy_), host(fx_), host(fy_), host(pe_)}),
        n_);
    if (!mpi::is_root()) return {};
    const auto &r = g.reals;
    std::vector<Field> f;
    f.push_back(Field::vector("position", {r[0], r[1]}).with_unit("sigma"));
    f.push_back(Field::vector("velocity", {r[2], r[3]}).with_unit("sigma tau-1"));
    f.push_back(Field::vector("force", {r[4], r[5]}).with_unit("epsilon sigma-1"));
    f.push_back(Field::reals("potential_energy", {r[6]}).with_unit("epsilon"));
    return f;
}

Checkpoint Simulation::gathered_save() {
    // In id order (the ids are 0 .. N-1), so a restart at any rank count reads the same file,
    // the serial run's format.
    const domain::Columns g =
        domain::gather_by_id(local_columns(config_, domain_->ids().to_vector<int32_t>(),
                                           {host(x_), host(y_)}, {host(vx_), host(vy_)}),
                             n_);
    Checkpoint ck;
    if (!mpi::is_root()) return ck;
    ck.put("x", g.reals[0]);
    ck.put("y", g.reals[1]);
    ck.put("vx", g.reals[2]);
    ck.put("vy", g.reals[3]);
    return ck;
}

} // namespace smelt::apps::md2d
