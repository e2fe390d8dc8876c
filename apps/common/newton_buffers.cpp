#include "common/newton_buffers.h"

#include "backends/registry.h"
#include "common/run_config.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace smelt::apps {

namespace {

int checked_dims(int dims) {
    if (dims != 2 && dims != 3)
        throw std::invalid_argument("NewtonBuffers: 2 or 3 axes, not " + std::to_string(dims));
    return dims;
}

int32_t checked_wide_chunk(int32_t wide_chunk) {
    if (wide_chunk < 1024)
        throw std::invalid_argument("NewtonBuffers: wide_chunk must be at least 1024 particles, "
                                    "not " +
                                    std::to_string(wide_chunk));
    return wide_chunk;
}

} // namespace

NewtonBuffers::NewtonBuffers(const Program &program, const Options &options, int64_t n, DType real,
                             int dims, int32_t wide_chunk)
    : backend_(&backend_of(options)), real_(real), dims_(checked_dims(dims)),
      wide_chunk_(checked_wide_chunk(wide_chunk)), ranges_(program, "newton_ranges", options),
      sum_(program, dims == 2 ? "newton_sum_2d" : "newton_sum", options) {
    if (program.has_function("newton_sum_forces"))
        sum_forces_.emplace(program, "newton_sum_forces", options);
    if (program.has_function("newton_ranges_packed"))
        ranges_packed_.emplace(program, "newton_ranges_packed", options);
    resize(n);
}

int32_t NewtonBuffers::chunks_for(int64_t n, int32_t wide_chunk) {
    const int64_t wide = checked_wide_chunk(wide_chunk);
    const int64_t c = std::clamp<int64_t>(n / 1024, 1, 64);
    if (c <= 8) return static_cast<int32_t>(c);
    // Above 8, chunks of `wide` particles (at least 8 chunks), to the nearest multiple of 8: the
    // chunks are about equal work, and the OpenMP loop's static schedule gives each of 2, 4 or 8
    // threads the same number of them (31 chunks on 2 threads: 16 and 15, one thread idle for a
    // chunk at every launch).
    const int64_t w = std::clamp<int64_t>(n / wide, 8, 64);
    return static_cast<int32_t>(std::min<int64_t>(64, (w + 4) / 8 * 8));
}

void NewtonBuffers::resize(int64_t n) {
    n_ = n;
    chunks_ = chunks_for(n, wide_chunk_);
    const auto c = static_cast<size_t>(chunks_);
    rlo_ = zeros(c, DType::Int32, backend_);
    rhi_ = zeros(c, DType::Int32, backend_);
    boff_ = zeros(c, DType::Int32, backend_);
    built_ = -1;
}

void NewtonBuffers::prepare(const NeighborList &list) {
    if (list.builds() == built_) return;
    if (list.size() != n_)
        throw std::invalid_argument("NewtonBuffers: the list has " + std::to_string(list.size()) +
                                    " particles, the buffers " + std::to_string(n_));
    if (list.stride() != 1 || !list.spec().half)
        throw std::invalid_argument("NewtonBuffers: needs a half list with rows of stride 1");
    built_ = list.builds();
    if (n_ == 0) return;
    // Packed rows: one loop over each chunk's entries.
    Elementwise &ranges = list.spec().packed && ranges_packed_ ? *ranges_packed_ : ranges_;
    ranges(chunks_, {list.start(), list.count(), list.indices(), rlo_, rhi_, int32_t(n_), chunks_});
    const std::vector<int32_t> lo = rlo_.to_vector<int32_t>(), hi = rhi_.to_vector<int32_t>();
    std::vector<int32_t> off(lo.size());
    int64_t total = 0;
    for (size_t c = 0; c < lo.size(); ++c) {
        off[c] = static_cast<int32_t>(total);
        total += hi[c] - lo[c];
        if (total > std::numeric_limits<int32_t>::max())
            throw std::runtime_error("NewtonBuffers: the force buffers need more than 2^31 "
                                     "entries; reorder the particles by cell "
                                     "(neighbor.sort_interval) or use full lists");
    }
    boff_ = Array::from_vector(off, backend_);
    entries_ = total;
    // Zeroed when made; newton_sum clears every entry it reads, so they stay zero between
    // evaluations.
    if (buffers_.empty() || buffers_[0].size() < static_cast<size_t>(total)) {
        buffers_.clear();
        const auto size = static_cast<size_t>(total + total / 8);
        for (int q = 0; q < dims_ + 2; ++q)
            buffers_.push_back(zeros(size, real_, backend_));
    }
}

void NewtonBuffers::sum_into(const std::vector<Array> &out) {
    if (out.size() != size_t(dims_ + 2))
        throw std::invalid_argument("NewtonBuffers: sum_into needs " + std::to_string(dims_ + 2) +
                                    " arrays (force per axis, pe, vir)");
    if (n_ == 0) return;
    std::vector<Arg> args(out.begin(), out.end());
    args.insert(args.end(), buffers_.begin(), buffers_.end());
    for (Arg a : {Arg(rlo_), Arg(rhi_), Arg(boff_), Arg(int32_t(n_)), Arg(chunks_)})
        args.push_back(a);
    sum_(chunks_, args);
}

void NewtonBuffers::sum_forces_into(const Array &fx, const Array &fy, const Array &fz) {
    if (n_ == 0) return;
    if (!sum_forces_)
        throw std::invalid_argument("NewtonBuffers: the program has no newton_sum_forces");
    (*sum_forces_)(chunks_, {fx, fy, fz, buffers_[0], buffers_[1], buffers_[2], rlo_, rhi_, boff_,
                             int32_t(n_), chunks_});
}

} // namespace smelt::apps
