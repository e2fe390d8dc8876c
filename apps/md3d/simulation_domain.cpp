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
        // With the overlap, domain_forces refreshes the halo around the interior's forces.
        if (forces_subset_) {
            refresh_pending_ = true;
            return;
        }
        domain_->refresh();
        lap(DomainPhase::Refresh);
        return;
    }
    refresh_pending_ = false; // the rebuilt halo holds the current positions
    ++domain_rebuilds_;
    const auto &box = config_.system.box;
    // Into the box on every periodic axis, so ownership is decided by the grid's cuts.
    wrap_(
        {pos_[0], pos_[1], pos_[2], img_[0], img_[1], img_[2], box[0], box[1], box[2], periodic_});
    // Every per-particle array whose values outlive this call: dke is read after the forces.
    n_local_ = domain_->migrate({&pos_[0], &pos_[1], &pos_[2], &vel_[0], &vel_[1], &vel_[2],
                                 &img_[0], &img_[1], &img_[2], &typ_, &id_, &dke_},
                                n_local_);
    // Migration appends arrivals and closes the departures' gaps; diffusion mixes the rest. As in
    // a serial run (reorder_by_cell), the owned particles are put back in cell order every
    // sort_interval steps, at the first rebuild from then on, so that the force loop's
    // neighbours lie close in memory: without it the force kernel took twice as long on two
    // GPUs as on one (profile of 10^6 atoms per rank).
    const int64_t every = config_.neighbor.sort_interval;
    if (every > 0 && (sorted_at_ < 0 || step_ - sorted_at_ >= every)) {
        reorder_owned_by_cell();
        sorted_at_ = step_;
    }
    lap(DomainPhase::Migrate);
    domain_->build_halo(pos_, typ_, n_local_);
    for (Array *a : {&force_[0], &force_[1], &force_[2], &pe_, &vir_})
        if (int64_t(a->size()) != n_local_) *a = zeros(size_t(n_local_), real_, backend_);
    lap(DomainPhase::Halo);
    const auto &ext = domain_->ext();
    neighbors_.resize(domain_->total());
    // Full lists: the forces read the owned particles' rows only. Half lists keep the ghosts'
    // rows, which hold the owned particles' pairs with ghosts the spatial half gives them.
    if (newton_)
        newton_->resize(domain_->total());
    else
        neighbors_.set_rows(n_local_);
    neighbors_.build({ext[0], ext[1], ext[2]});
    if (forces_subset_) domain_->split(neighbors_);
    lap(DomainPhase::List);
}

void Simulation::reorder_owned_by_cell() {
    neighbors_.resize(n_local_);
    const Array &order = neighbors_.cell_order({pos_[0], pos_[1], pos_[2]});
    const auto n = size_t(n_local_);
    if (real_tmp_.size() != n) real_tmp_ = empty(n, real_, backend_);
    if (int_tmp_.size() != n) int_tmp_ = empty(n, DType::Int32, backend_);
    // The forces, pe and vir are computed afresh after the rebuild: only the state moves.
    for (Array *a : {&pos_[0], &pos_[1], &pos_[2], &vel_[0], &vel_[1], &vel_[2], &dke_}) {
        permute_real_(n_local_, {order, *a, real_tmp_});
        std::swap(*a, real_tmp_);
    }
    for (Array *a : {&img_[0], &img_[1], &img_[2], &typ_, &id_}) {
        permute_int_(n_local_, {order, *a, int_tmp_});
        std::swap(*a, int_tmp_);
    }
}

void Simulation::domain_forces(int64_t items, int lanes, std::vector<smelt::Arg> args) {
    if (!refresh_pending_) {
        forces_(items, args);
        return;
    }
    refresh_pending_ = false;
    ++overlapped_refreshes_;
    auto mark = std::chrono::steady_clock::now();
    auto lap = [&](DomainPhase p) {
        const auto now = std::chrono::steady_clock::now();
        domain_seconds_[size_t(p)] += std::chrono::duration<double>(now - mark).count();
        mark = now;
    };
    const domain::InteriorSplit &split = domain_->interior_split();
    // The order matters because the device runs its work in the order it was queued, and a
    // copy to the host waits for everything queued before it (Array reads, Backend::read):
    // 1. Pack the first exchanged axis' ghost coordinates and copy them to the host. Queued
    //    after the interior forces, this copy would wait for them and nothing would overlap.
    domain_->refresh_out();
    lap(DomainPhase::Out);
    // 2. Queue the interior's forces: their rows read owned positions only (needs_rebuild
    //    loaded them; the refresh writes only ghost slots). flush() starts them on the device
    //    now (OpenCL may otherwise hold them until the next blocking call).
    args.insert(args.begin(), split.interior());
    if (split.interior_count() > 0)
        (*forces_subset_)(int64_t(lanes) * split.interior_count(), args);
    backend_->flush();
    // 3. The MPI messages, on the host, while the device computes.
    domain_->refresh_exchange();
    lap(DomainPhase::Exchange);
    // 4. The received coordinates to the device and into the ghost slots: queued behind the
    //    interior forces (on OpenCL the blocking copy waits for them, so this phase includes
    //    what of the interior forces the exchange did not cover); the other axes' refreshes
    //    forward these ghosts, so they run whole here.
    domain_->refresh_in();
    lap(DomainPhase::In);
    // 5. The boundary particles, now that their ghosts are in place. Each particle's forces
    //    come from the same function over the same row as in one launch over all: the same
    //    bits (tests: Md3dOverlap.*, md3d.mpi.opencl.overlap.np2).
    args[0] = split.boundary();
    if (split.boundary_count() > 0)
        (*forces_subset_)(int64_t(lanes) * split.boundary_count(), args);
}

void Simulation::compile_domain_kernels() {
    if (!forces_subset_) return;
    // The halo holds the current positions: a refresh resends them, the forces keep their bits.
    // Its time (the compile's) is left out of the phases' averages.
    const auto seconds = domain_seconds_;
    const int64_t refreshes = overlapped_refreshes_;
    refresh_pending_ = true;
    evaluate_forces(true);
    domain_seconds_ = seconds;
    overlapped_refreshes_ = refreshes;
}

std::string Simulation::domain_summary() const {
    const domain::Halo &h = domain_->halo();
    const auto ms = [&](DomainPhase p, int64_t per) {
        return per ? 1e3 * domain_seconds_[size_t(p)] / double(per) : 0.0;
    };
    const int64_t refreshes = domain_updates_ - domain_rebuilds_;
    char line[400];
    std::snprintf(line, sizeof line,
                  "rank %d: %lld owned, %lld ghosts, %.1f kB sent per step (%s); ms per "
                  "step: rebuild test %.3g, halo refresh %.3g; ms per rebuild: migration %.3g, "
                  "halo build %.3g, list %.3g",
                  mpi::rank(), (long long)h.owned(), (long long)h.ghosts(),
                  double(h.bytes_sent()) / 1e3,
                  h.linked() ? "device to device, NCCL" : "via the host",
                  ms(DomainPhase::Test, domain_updates_), ms(DomainPhase::Refresh, refreshes),
                  ms(DomainPhase::Migrate, domain_rebuilds_),
                  ms(DomainPhase::Halo, domain_rebuilds_), ms(DomainPhase::List, domain_rebuilds_));
    std::string mine = line;
    if (forces_subset_) {
        // The overlapped refreshes (the plain "halo refresh" above then counts none).
        const domain::InteriorSplit &split = domain_->interior_split();
        const int64_t owned = split.interior_count() + split.boundary_count();
        char overlap[240];
        std::snprintf(overlap, sizeof overlap,
                      "; overlap (%lld refreshes, %.0f %% of the owned interior at the last "
                      "rebuild): ms per step: halo out %.3g, exchange under the interior forces "
                      "%.3g, halo in %.3g",
                      (long long)overlapped_refreshes_,
                      owned ? 100.0 * double(split.interior_count()) / double(owned) : 0.0,
                      ms(DomainPhase::Out, overlapped_refreshes_),
                      ms(DomainPhase::Exchange, overlapped_refreshes_),
                      ms(DomainPhase::In, overlapped_refreshes_));
        mine += overlap;
    }
    // Every rank's line in rank order, for rank 0 to print (collective: every rank's run loop
    // asks for its summary).
    mine += '\n';
    std::string all;
    for (char c : mpi::gather_bytes(std::vector<char>(mine.begin(), mine.end())))
        all += c == '\n' ? std::string(", ") : std::string(1, c);
    return all.substr(0, all.size() >= 2 ? all.size() - 2 : 0);
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
