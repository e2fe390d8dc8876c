// Per-chunk force buffers for Newton's third law on a half neighbour list (CPU backends),
// driving apps/common/kernels/newton.py:
//
//   after each list build:  newton_ranges (Elementwise over the chunks; newton_ranges_packed
//                           for packed rows, when the program has it) → the circular index
//                           range each chunk's rows touch; on the host, the buffer offsets (a
//                           prefix sum of the range lengths) and buffers grown to their total
//                           (zeroed)
//   every force evaluation: the app's force kernel over the chunks adds into the buffers →
//                           newton_sum (Elementwise over the chunks; newton_sum_2d for two axes)
//                           adds the chunks' entries in chunk order into the forces per axis,
//                           pe and vir, and clears them; or, after a 3D pass that left the
//                           energy and virial buffers alone, newton_sum_forces into fx, fy, fz
//                           only (the same bits)
//
// The chunk count depends only on the particle count (chunks_for), never on the thread count,
// so the forces are the same bits on any number of threads. With particles in cell order (md3d's
// neighbor.sort_interval) a chunk's rows reach little beyond its own particles, and the buffers
// hold a few times n entries; in random order up to chunks × n.
#pragma once

#include "common/neighbor_list.h"
#include "smelt.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace smelt::apps {

class NewtonBuffers {
public:
    // n particles; `real` is the dtype of the force arrays; `dims` axes (2: newton_sum_2d, 3:
    // newton_sum), so dims + 2 buffers (force per axis, pe, vir); `wide_chunk`: see chunks_for.
    // Kernels compile on first use.
    NewtonBuffers(const Program &program, const Options &options, int64_t n, DType real,
                  int dims = 3, int32_t wide_chunk = 1024);

    // The chunks of n particles: about 1024 particles each up to 8 chunks, at least 1; beyond
    // that about wide_chunk particles each (at least 1024), at least 8 and at most 64 chunks (64:
    // enough to balance the threads of one CPU socket), a multiple of 8 (rounded to the
    // nearest), so that 2, 4 or 8 threads get the same number of chunks. Each chunk's buffer
    // spans its particles and the reach of their rows (in 3D about one layer of cells past
    // them), so small chunks make buffers of several times n entries, all summed every step: an
    // app whose rows reach far asks for wider chunks.
    static int32_t chunks_for(int64_t n, int32_t wide_chunk = 1024);

    // Changes the particle count; the next prepare() recomputes the ranges.
    void resize(int64_t n);
    // Recomputes the chunks' ranges and the buffer layout when `list` was rebuilt since the last
    // call (its builds() changed). The list must be a half list with rows of stride 1.
    void prepare(const NeighborList &list);
    // out = {force per axis..., pe, vir} (dims + 2 arrays) = the buffers' sums; the buffers
    // are zero after it.
    void sum_into(const std::vector<Array> &out);
    void sum_into(const Array &fx, const Array &fy, const Array &fz, const Array &pe,
                  const Array &vir) {
        sum_into({fx, fy, fz, pe, vir});
    }
    // fx, fy, fz = the force buffers' sums (newton_sum_forces, the same bits as sum_into), pe
    // and vir untouched: after a force pass that wrote no energy or virial. The program must
    // have newton_sum_forces (std::invalid_argument otherwise).
    void sum_forces_into(const Array &fx, const Array &fy, const Array &fz);

    int32_t chunks() const { return chunks_; }
    int64_t size() const { return n_; }
    // Entries of each buffer in use (sum of the chunks' range lengths).
    int64_t entries() const { return entries_; }
    // Buffers of the force per axis, pe, vir; chunk c's entry for particle p is at
    // offsets()[c] + p - range_lo()[c], plus n when p < range_lo()[c] (the ranges are circular:
    // newton.py's newton_ranges and newton_entry).
    const std::vector<Array> &buffers() const { return buffers_; }
    const Array &range_lo() const { return rlo_; }
    const Array &range_hi() const { return rhi_; }
    const Array &offsets() const { return boff_; }

private:
    Backend *backend_;
    DType real_;
    int dims_ = 3;
    int64_t n_ = 0;
    int32_t wide_chunk_ = 1024;
    int32_t chunks_ = 1;
    int64_t entries_ = 0;
    int64_t built_ = -1; // the list's builds() at the last prepare(); -1: none
    Elementwise ranges_, sum_;
    std::optional<Elementwise> sum_forces_;
    std::optional<Elementwise> ranges_packed_; // newton_ranges_packed, for packed rows
    Array rlo_, rhi_, boff_;
    std::vector<Array> buffers_;
};

} // namespace smelt::apps
