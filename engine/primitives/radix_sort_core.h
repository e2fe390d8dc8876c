// The CPU radix sort (included by radix_sort.cpp only). Stable, 8-bit digits, keys first mapped
// to order-preserving unsigned integers (radix_keys.h). Two strategies share one setup:
//
//   map      u[i] = map(key[i]); each thread counts every digit over its contiguous chunk.
//            Digits equal for all keys (e.g. the high bytes of small ints) are skipped below.
//
//   split    (large inputs whose top varying digit spreads the keys over several buckets)
//            one parallel stable scatter on the most significant varying digit, then each
//            bucket — small enough to stay in cache — is finished on one thread by sequential
//            LSD passes over the remaining digits. Only a few barriers in total.
//
//   lsd      (small or skewed inputs) classic parallel LSD: per pass, per-thread histograms of
//            the current order, offsets ordered by (digit, thread), every thread scatters its
//            chunk in order. Equal digits keep their order, so every pass is stable.
//
// Values move with their keys as raw bytes; argsort's values start as 0..n-1. The last pass
// writes keys back through unmap(). -0.0 and +0.0 map to one key; their signs, in input order,
// are restored at the end so results equal std::stable_sort's bit for bit.
#pragma once

#include "primitives/radix_keys.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <omp.h>
#include <type_traits>
#include <vector>

namespace smelt::radix {

struct NoValue {};

// Below this many keys, threads and the split cost more than they save.
inline constexpr size_t kParallelMin = size_t(1) << 16;

using Histogram = std::array<size_t, 256>;

inline void chunk_of(size_t n, int t, int nt, size_t &lo, size_t &hi) {
    lo = n * static_cast<size_t>(t) / static_cast<size_t>(nt);
    hi = n * static_cast<size_t>(t + 1) / static_cast<size_t>(nt);
}

// Turns counts into exclusive offsets; returns false when one digit value holds all `len` keys.
inline bool exclusive_scan(const Histogram &count, Histogram &offset, size_t len) {
    size_t running = 0;
    for (int b = 0; b < 256; ++b) {
        if (count[b] == len) return false;
        offset[b] = running;
        running += count[b];
    }
    return true;
}

template <class K, class V> class RadixSorter {
    using Map = KeyMap<K>;
    using U = typename Map::U;
    static constexpr int kDigits = sizeof(U);
    static constexpr bool kHasValues = !std::is_same_v<V, NoValue>;
    using VS = std::conditional_t<kHasValues, V, char>; // storage type (unused without values)

public:
    // Sorts n keys read from in_keys; writes them to out_keys (may equal in_keys, or be null
    // for argsort) and permutes `values` alongside (set to 0..n-1 first when identity_values).
    RadixSorter(const K *in_keys, K *out_keys, V *values, size_t n, int threads,
                bool identity_values)
        : in_(in_keys), out_(out_keys), values_(reinterpret_cast<VS *>(values)), n_(n),
          threads_(n < kParallelMin || threads < 1 ? 1 : threads), identity_(identity_values) {}

    void run() {
        if (n_ == 0) return;
        ka_.reset(new U[n_]);
        counts_.resize(static_cast<size_t>(threads_));
        offsets_.resize(static_cast<size_t>(threads_));
#pragma omp parallel num_threads(threads_)
        {
            const int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t lo, hi;
            chunk_of(n_, t, nt, lo, hi);
            map_chunk(t, lo, hi);
#pragma omp barrier
#pragma omp single
            plan(nt);
            if (!passes_.empty() && split_) {
                split_on_top_digit(t, nt, lo, hi);
#pragma omp barrier
                finish_buckets();
            } else if (!passes_.empty()) {
                lsd_passes(t, nt, lo, hi);
            }
        }
        for (size_t k = 0; k < zero_signs_.size(); ++k)
            out_[zeros_before_ + k] = zero_signs_[k] ? -K(0) : K(0);
    }

private:
    void map_chunk(int t, size_t lo, size_t hi) {
        auto &c = counts_[static_cast<size_t>(t)];
        for (auto &h : c)
            h.fill(0);
        for (size_t i = lo; i < hi; ++i) {
            const U u = Map::map(in_[i]);
            ka_[i] = u;
            for (int d = 0; d < kDigits; ++d)
                ++c[d][(u >> (8 * d)) & 0xFF];
            if constexpr (kHasValues) {
                if (identity_) values_[i] = static_cast<VS>(i);
            }
        }
    }

    // One thread: which digits vary, which strategy, scratch memory, zero signs.
    void plan(int nt) {
        Histogram top_total{};
        for (int d = 0; d < kDigits; ++d) {
            Histogram total{};
            for (int t = 0; t < nt; ++t)
                for (int b = 0; b < 256; ++b)
                    total[b] += counts_[t][d][b];
            Histogram unused;
            if (exclusive_scan(total, unused, n_)) {
                passes_.push_back(d);
                top_total = total;
            }
        }
        if (passes_.empty()) return; // all keys equal: the input order is the stable order
        size_t largest = 0;
        for (size_t c : top_total)
            largest = c > largest ? c : largest;
        split_ = n_ >= kParallelMin && passes_.size() >= 2 && largest <= n_ / 2;
        if (split_) {
            bucket_start_[0] = 0;
            for (int b = 0; b < 256; ++b)
                bucket_start_[b + 1] = bucket_start_[b] + top_total[b];
        }
        if (split_ || passes_.size() > 1) kb_.reset(new U[n_]);
        if constexpr (kHasValues) vb_.reset(new VS[n_]);
        if constexpr (std::is_floating_point_v<K>) record_zero_signs();
    }

    // -0.0 and +0.0 form one run of equal keys in input order, starting after the negatives.
    void record_zero_signs() {
        if (!out_) return;
        bool any_negative_zero = false;
        for (size_t i = 0; i < n_ && !any_negative_zero; ++i)
            any_negative_zero = Map::is_negative_zero(in_[i]);
        if (!any_negative_zero) return;
        for (size_t i = 0; i < n_; ++i) {
            if (in_[i] == K(0))
                zero_signs_.push_back(Map::is_negative_zero(in_[i]));
            else if (in_[i] < K(0))
                ++zeros_before_;
        }
    }

    // Offsets ordered by (digit value, thread) from each thread's counts in offsets_.
    void thread_offsets(int nt) {
        size_t running = 0;
        for (int b = 0; b < 256; ++b)
            for (int u = 0; u < nt; ++u) {
                const size_t c = offsets_[static_cast<size_t>(u)][b];
                offsets_[static_cast<size_t>(u)][b] = running;
                running += c;
            }
    }

    // Stable scatter of [lo, hi) by the digit at `shift`. Writes unmapped keys to kout when
    // given, else mapped keys to dst (or no keys when both are null).
    void scatter(const U *src, U *dst, K *kout, const VS *vsrc, VS *vdst, size_t lo, size_t hi,
                 int shift, Histogram &off) {
        if (kout) {
            for (size_t i = lo; i < hi; ++i) {
                const U u = src[i];
                const size_t pos = off[(u >> shift) & 0xFF]++;
                kout[pos] = Map::unmap(u);
                if constexpr (kHasValues) vdst[pos] = vsrc[i];
            }
        } else if (dst) {
            for (size_t i = lo; i < hi; ++i) {
                const U u = src[i];
                const size_t pos = off[(u >> shift) & 0xFF]++;
                dst[pos] = u;
                if constexpr (kHasValues) vdst[pos] = vsrc[i];
            }
        } else if constexpr (kHasValues) {
            for (size_t i = lo; i < hi; ++i)
                vdst[off[(src[i] >> shift) & 0xFF]++] = vsrc[i];
        }
    }

    void lsd_passes(int t, int nt, size_t lo, size_t hi) {
        U *src = ka_.get(), *dst = kb_.get();
        VS *vsrc = values_, *vdst = vb_.get();
        const int num_passes = static_cast<int>(passes_.size());
        for (int p = 0; p < num_passes; ++p) {
            const int shift = 8 * passes_[p];
            Histogram &h = offsets_[static_cast<size_t>(t)];
            if (p == 0) {
                h = counts_[static_cast<size_t>(t)][passes_[0]]; // same chunks, same order
            } else {
                h.fill(0);
                for (size_t i = lo; i < hi; ++i)
                    ++h[(src[i] >> shift) & 0xFF];
            }
#pragma omp barrier
#pragma omp single
            thread_offsets(nt);
            Histogram off = h;
            const bool last = p == num_passes - 1;
            scatter(src, last ? nullptr : dst, last ? out_ : nullptr, vsrc, vdst, lo, hi, shift,
                    off);
#pragma omp barrier
            std::swap(src, dst);
            std::swap(vsrc, vdst);
        }
        if constexpr (kHasValues) { // after an odd number of passes the values are in scratch
            if (num_passes % 2 == 1 && hi > lo)
                std::memcpy(values_ + lo, vb_.get() + lo, (hi - lo) * sizeof(VS));
        }
    }

    void split_on_top_digit(int t, int nt, size_t lo, size_t hi) {
        const int top = passes_.back();
        offsets_[static_cast<size_t>(t)] = counts_[static_cast<size_t>(t)][top];
#pragma omp barrier
#pragma omp single
        thread_offsets(nt);
        Histogram off = offsets_[static_cast<size_t>(t)];
        scatter(ka_.get(), kb_.get(), nullptr, values_, vb_.get(), lo, hi, 8 * top, off);
    }

    void finish_buckets() {
#pragma omp for schedule(dynamic, 1)
        for (int b = 0; b < 256; ++b)
            finish_bucket(bucket_start_[b], bucket_start_[b + 1]);
    }

    // Sequential LSD over the lower varying digits of one bucket, now in (kb_, vb_)[lo, hi).
    // Digits constant inside the bucket are skipped too.
    void finish_bucket(size_t lo, size_t hi) {
        const size_t len = hi - lo;
        if (len == 0) return;
        const int lower = static_cast<int>(passes_.size()) - 1;
        std::array<Histogram, kDigits> count;
        for (int j = 0; j < lower; ++j)
            count[j].fill(0);
        const U *keys = kb_.get() + lo;
        for (size_t i = 0; i < len; ++i)
            for (int j = 0; j < lower; ++j)
                ++count[j][(keys[i] >> (8 * passes_[j])) & 0xFF];
        std::array<Histogram, kDigits> offset;
        std::array<int, kDigits> shifts{};
        int q = 0;
        for (int j = 0; j < lower; ++j)
            if (exclusive_scan(count[j], offset[q], len)) shifts[q++] = 8 * passes_[j];

        U *src = kb_.get() + lo, *dst = ka_.get() + lo;
        VS *vsrc = kHasValues ? vb_.get() + lo : nullptr,
           *vdst = kHasValues ? values_ + lo : nullptr;
        K *kout = out_ ? out_ + lo : nullptr;
        if (q == 0 && kout)
            for (size_t i = 0; i < len; ++i)
                kout[i] = Map::unmap(src[i]);
        for (int p = 0; p < q; ++p) {
            const bool last = p == q - 1;
            scatter(src, last ? nullptr : dst, last ? kout : nullptr, vsrc, vdst, 0, len, shifts[p],
                    offset[p]);
            std::swap(src, dst);
            std::swap(vsrc, vdst);
        }
        if constexpr (kHasValues) { // values end in vb_ after an even number of passes
            if (q % 2 == 0) std::memcpy(values_ + lo, vb_.get() + lo, len * sizeof(VS));
        }
    }

    const K *in_;
    K *out_;
    VS *values_;
    size_t n_;
    int threads_;
    bool identity_;
    std::unique_ptr<U[]> ka_, kb_;
    std::unique_ptr<VS[]> vb_;
    std::vector<std::array<Histogram, kDigits>> counts_; // per thread, from the map step
    std::vector<Histogram> offsets_;                     // per thread
    std::vector<int> passes_;                            // varying digits, least significant first
    bool split_ = false;
    std::array<size_t, 257> bucket_start_{};
    std::vector<uint8_t> zero_signs_;
    size_t zeros_before_ = 0;
};

template <class K, class V>
void radix_sort(const K *in_keys, K *out_keys, V *values, size_t n, int threads,
                bool identity_values) {
    RadixSorter<K, V>(in_keys, out_keys, values, n, threads, identity_values).run();
}

} // namespace smelt::radix
