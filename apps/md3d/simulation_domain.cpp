// The Simulation's domain-decomposition paths (md3d/domain.h): the neighbour update with
// migration and ghosts, and the outputs gathered on rank 0. The serial paths are in
// simulation.cpp; these run only on more than one MPI rank.
#include "common/domain/gather.h"
#include "common/domain/mpi_env.h"
#include "md3d/domain.h"
#include "md3d/simulation.h"

#include <chrono>
#include <cstdio>

namespace smelt::apps::md3d {

void Simulation::update_domain() {
    // Each phase's wall time, for domain_summary; device work queued before a phase that waits
    // (a read-back) is counted in that phase.
    auto mark = std::chrono::steady_clock::now();
    auto lap = [&](DomainPhase p) {
        const auto now = std::chrono::steady_clock::now();
        domain_seconds_[size_t(p)] += std::chrono::duration<double>(now - mark).count();
        mark = now;
    };
    ++domain_updates_;
    const bool rebuild = domain_->needs_rebuild(pos_, n_local_, neighbors_);
    lap(DomainPhase::Test);
    if (!rebuild) {
        domain_->refresh();
        lap(DomainPhase::Refresh);
        return;
    }
    ++domain_rebuilds_;
    const auto &box = config_.system.box;
    // Into the box on every periodic axis, so ownership is decided by the grid's cuts.
    wrap_(
        {pos_[0], pos_[1], pos_[2], img_[0], img_[1], img_[2], box[0], box[1], box[2], periodic_});
    // Every per-particle array whose values outlive this call: dke is read after the forces.
    n_local_ = domain_->rebuild({&pos_[0], &pos_[1], &pos_[2], &vel_[0], &vel_[1], &vel_[2],
                                 &img_[0], &img_[1], &img_[2], &typ_, &id_, &dke_},
                                typ_, n_local_);
    for (Array *a : {&force_[0], &force_[1], &force_[2], &pe_, &vir_})
        if (int64_t(a->size()) != n_local_) *a = zeros(size_t(n_local_), real_, backend_);
    lap(DomainPhase::Migrate);
    const auto &ext = domain_->ext();
    neighbors_.resize(domain_->total());
    neighbors_.build({ext[0], ext[1], ext[2]});
    lap(DomainPhase::List);
}

std::string Simulation::domain_summary() const {
    const domain::Halo &h = domain_->halo();
    const auto ms = [&](DomainPhase p, int64_t per) {
        return per ? 1e3 * domain_seconds_[size_t(p)] / double(per) : 0.0;
    };
    const int64_t refreshes = domain_updates_ - domain_rebuilds_;
    char line[320];
    std::snprintf(line, sizeof line,
                  "rank %d: %lld owned, %lld ghosts, %.1f kB sent per step; ms per step: "
                  "rebuild test %.3g, halo refresh %.3g; ms per rebuild: migration and halo "
                  "%.3g, list %.3g",
                  mpi::rank(), (long long)h.owned(), (long long)h.ghosts(),
                  double(h.bytes_sent()) / 1e3, ms(DomainPhase::Test, domain_updates_),
                  ms(DomainPhase::Refresh, refreshes), ms(DomainPhase::Migrate, domain_rebuilds_),
                  ms(DomainPhase::List, domain_rebuilds_));
    return line;
}

namespace {

// This rank's particles: ids, then position (wrapped as wrap_positions would), velocity,
// [force], potential energy; image and species.
domain::Columns local_columns(const Md3dConfig &config, const std::vector<std::vector<double>> &x,
                              std::vector<std::vector<int64_t>> img) {
    domain::Columns c;
    std::vector<std::vector<double>> pos = x;
    for (int a = 0; a < 3; ++a)
        if (config.axis_periodic(a))
            for (size_t i = 0; i < pos[size_t(a)].size(); ++i)
                wrap_on_host(pos[size_t(a)][i], img[size_t(a)][i], config.system.box[size_t(a)]);
    c.reals = std::move(pos);
    c.integers = std::move(img);
    return c;
}

} // namespace

std::vector<Field> Simulation::gathered_frame() {
    auto ints = [&](const Array &a) {
        const std::vector<int32_t> v = device_order_int(a);
        return std::vector<int64_t>(v.begin(), v.end());
    };
    domain::Columns c = local_columns(
        config_, {device_order(pos_[0]), device_order(pos_[1]), device_order(pos_[2])},
        {ints(img_[0]), ints(img_[1]), ints(img_[2])});
    c.ids = ints(id_);
    for (const Array *a : {&vel_[0], &vel_[1], &vel_[2]})
        c.reals.push_back(device_order(*a));
    if (config_.output_force)
        for (const Array *a : {&force_[0], &force_[1], &force_[2]})
            c.reals.push_back(device_order(*a));
    c.reals.push_back(device_order(pe_));
    c.integers.push_back(ints(typ_));
    const domain::Columns g = domain::gather_by_id(c, n_);
    if (!mpi::is_root()) return {};
    const auto &r = g.reals;
    std::vector<Field> f;
    f.push_back(Field::vector("position", {r[0], r[1], r[2]}).with_unit("sigma"));
    f.push_back(Field::vector("velocity", {r[3], r[4], r[5]}).with_unit("sigma tau-1"));
    if (config_.output_force)
        f.push_back(Field::vector("force", {r[6], r[7], r[8]}).with_unit("epsilon sigma-1"));
    f.push_back(Field::reals("potential_energy", {r.back()}).with_unit("epsilon"));
    const auto &n = g.integers;
    f.push_back(Field::integers("image", {n[0], n[1], n[2]}));
    f.push_back(Field::integers("species", {n[3]}));
    return f;
}

Checkpoint Simulation::gathered_save() {
    auto ints = [&](const Array &a) {
        const std::vector<int32_t> v = device_order_int(a);
        return std::vector<int64_t>(v.begin(), v.end());
    };
    domain::Columns c = local_columns(
        config_, {device_order(pos_[0]), device_order(pos_[1]), device_order(pos_[2])},
        {ints(img_[0]), ints(img_[1]), ints(img_[2])});
    c.ids = ints(id_);
    for (const Array *a : {&vel_[0], &vel_[1], &vel_[2]})
        c.reals.push_back(device_order(*a));
    c.integers.push_back(ints(typ_));
    const domain::Columns g = domain::gather_by_id(c, n_);
    // In id order (the ids are 0 .. N-1), so a restart at any rank count reads the same file.
    Checkpoint ck;
    ck.put_scalar("heat", heat_);
    ck.put_scalar("time_origin_step", step0_);
    ck.put_scalar("time_origin", time0_);
    if (!mpi::is_root()) return ck;
    const char *axes[3] = {"x", "y", "z"};
    for (size_t a = 0; a < 3; ++a) {
        ck.put(axes[a], g.reals[a]);
        ck.put(std::string("v") + axes[a], g.reals[3 + a]);
        ck.put(std::string("i") + axes[a], g.integers[a]);
    }
    ck.put("species", g.integers[3]);
    ck.put("id", g.ids);
    return ck;
}

} // namespace smelt::apps::md3d
