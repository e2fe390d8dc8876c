// The CPU radix sort (included by radix_sort.cpp only). Stable, 8-bit digits, keys mapped to
// order-preserving unsigned integers (radix_keys.h) as they are read. Two strategies share one
// counting step:
//
//   count    each thread counts every digit of its contiguous chunk (one read of the keys).
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
// Values move with their keys as raw bytes; argsort's values (0..n-1) are made by the first
// scatter. The last pass writes keys back through unmap(). -0.0 and +0.0 map to one key; their
// signs, in input order, are restored at the end, so results equal std::stable_sort's bit for bit.
#pragma once

#include "primitives/radix_keys.h"
#include "support/scratch.h"

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

    // Where a scatter reads keys and values from.
    struct UserKeys {
        const K *k;
        U operator()(size_t i) const { return Map::map(k[i]); }
    };
    struct Mapped {
        const U *u;
        U operator()(size_t i) const { return u[i]; }
    };
    struct Stored {
        const VS *v;
        VS operator()(size_t i) const { return v[i]; }
    };
    struct Identity {
        VS operator()(size_t i) const { return static_cast<VS>(i); }
    };

public:
    // Sorts n keys read from in_keys; writes them to out_keys (may equal in_keys, or be null
    // for argsort) and permutes `values` alongside (argsort: they become 0..n-1 first).
    RadixSorter(const K *in_keys, K *out_keys, V *values, size_t n, int threads, bool identity_values)
        : in_(in_keys), out_(out_keys), values_(reinterpret_cast<VS *>(values)), n_(n),
          threads_(n < kParallelMin || threads < 1 ? 1 : threads), identity_(identity_values) {}

    void run() {
        if (n_ == 0) return;
        counts_.resize(static_cast<size_t>(threads_));
        offsets_.resize(static_cast<size_t>(threads_));
#pragma omp parallel num_threads(threads_)
        {
            const int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t lo, hi;
            chunk_of(n_, t, nt, lo, hi);
            count_chunk(t, lo, hi);
#pragma omp barrier
#pragma omp single
            plan(nt);
            if (passes_.empty()) { // all keys equal: the input order is the stable order
                if constexpr (kHasValues)
                    if (identity_)
                        for (size_t i = lo; i < hi; ++i) values_[i] = static_cast<VS>(i);
            } else if (split_) {
                split_on_top_digit(t, nt, lo, hi);
#pragma omp barrier
                finish_buckets();
            } else {
                lsd_passes(t, nt, lo, hi);
            }
        }
        for (size_t k = 0; k < zero_signs_.size(); ++k)
            out_[zeros_before_ + k] = zero_signs_[k] ? -K(0) : K(0);
    }

private:
    void count_chunk(int t, size_t lo, size_t hi) {
        auto &c = counts_[static_cast<size_t>(t)];
        for (auto &h : c) h.fill(0);
        for (size_t i = lo; i < hi; ++i) {
            const U u = Map::map(in_[i]);
            for (int d = 0; d < kDigits; ++d) ++c[d][(u >> (8 * d)) & 0xFF];
        }
    }

    // One thread: which digits vary, which strategy, scratch memory, zero signs.
    void plan(int nt) {
        Histogram top_total{};
        for (int d = 0; d < kDigits; ++d) {
            Histogram total{};
            for (int t = 0; t < nt; ++t)
                for (int b = 0; b < 256; ++b) total[b] += counts_[t][d][b];
            Histogram unused;
            if (exclusive_scan(total, unused, n_)) {
                passes_.push_back(d);
                top_total = total;
            }
        }
        if (passes_.empty()) return;
        size_t largest = 0;
        for (size_t c : top_total) largest = c > largest ? c : largest;
        split_ = n_ >= kParallelMin && passes_.size() >= 2 && largest <= n_ / 2;
        if (split_) {
            bucket_start_[0] = 0;
            for (int b = 0; b < 256; ++b) bucket_start_[b + 1] = bucket_start_[b] + top_total[b];
        }
        // Two key buffers and one value buffer, carved from one reusable block.
        const size_t key_bytes = (n_ * sizeof(U) + 63) / 64 * 64;
        scratch_ = std::make_unique<Scratch>(2 * key_bytes + (kHasValues ? n_ * sizeof(VS) : 0));
        auto *base = static_cast<unsigned char *>(scratch_->data());
        ka_ = reinterpret_cast<U *>(base);
        kb_ = reinterpret_cast<U *>(base + key_bytes);
        vb_ = reinterpret_cast<VS *>(base + 2 * key_bytes);
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
            if (in_[i] == K(0)) zero_signs_.push_back(Map::is_negative_zero(in_[i]));
            else if (in_[i] < K(0)) ++zeros_before_;
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

    // Stable scatter of [lo, hi) by the digit at `shift`: mapped keys to dst, or unmapped keys
    // to kout, or no keys when both are null; values to vdst.
    template <class KeySrc, class ValueSrc>
    void scatter(KeySrc key, U *dst, K *kout, ValueSrc value, VS *vdst, size_t lo, size_t hi,
                 int shift, Histogram &off) {
        // One loop per destination kind, so the inner loop carries no per-element branch.
        if (kout) scatter_loop<1>(key, dst, kout, value, vdst, lo, hi, shift, off);
        else if (dst) scatter_loop<0>(key, dst, kout, value, vdst, lo, hi, shift, off);
        else scatter_loop<2>(key, dst, kout, value, vdst, lo, hi, shift, off);
    }
    template <int kMode, class KeySrc, class ValueSrc> // 0: mapped keys, 1: user keys, 2: none
    void scatter_loop(KeySrc key, U *dst, K *kout, ValueSrc value, VS *vdst, size_t lo, size_t hi,
                      int shift, Histogram &off) {
        for (size_t i = lo; i < hi; ++i) {
            const U u = key(i);
            const size_t pos = off[(u >> shift) & 0xFF]++;
            if constexpr (kMode == 1) kout[pos] = Map::unmap(u);
            if constexpr (kMode == 0) dst[pos] = u;
            if constexpr (kHasValues) vdst[pos] = value(i);
        }
    }

    // First scatter: keys straight from the user's array, values from theirs or 0..n-1.
    void first_scatter(U *dst, K *kout, size_t lo, size_t hi, int shift, Histogram &off) {
        if (kHasValues && identity_)
            scatter(UserKeys{in_}, dst, kout, Identity{}, vb_, lo, hi, shift, off);
        else
            scatter(UserKeys{in_}, dst, kout, Stored{values_}, vb_, lo, hi, shift, off);
    }

    void lsd_passes(int t, int nt, size_t lo, size_t hi) {
        const int num_passes = static_cast<int>(passes_.size());
        for (int p = 0; p < num_passes; ++p) {
            const int shift = 8 * passes_[p];
            // Keys: user → ka → kb → ka ...; values: user → vb → user ...
            U *src = (p % 2 == 1) ? ka_ : kb_, *dst = (p % 2 == 1) ? kb_ : ka_;
            VS *vsrc = (p % 2 == 1) ? vb_ : values_, *vdst = (p % 2 == 1) ? values_ : vb_;
            Histogram &h = offsets_[static_cast<size_t>(t)];
            if (p == 0) {
                h = counts_[static_cast<size_t>(t)][passes_[0]]; // same chunks, same order
            } else {
                h.fill(0);
                for (size_t i = lo; i < hi; ++i) ++h[(src[i] >> shift) & 0xFF];
            }
#pragma omp barrier
#pragma omp single
            thread_offsets(nt);
            Histogram off = h;
            // The last pass writes the user's keys, except a single pass, which reads them.
            K *kout = (p == num_passes - 1 && p > 0) ? out_ : nullptr;
            U *kdst = (p == num_passes - 1 && (p > 0 || !out_)) ? nullptr : dst;
            if (p == 0) first_scatter(kdst, kout, lo, hi, shift, off);
            else scatter(Mapped{src}, kdst, kout, Stored{vsrc}, vdst, lo, hi, shift, off);
#pragma omp barrier
        }
        if (num_passes == 1 && out_)
            for (size_t i = lo; i < hi; ++i) out_[i] = Map::unmap(ka_[i]);
        if constexpr (kHasValues) { // after an odd number of passes the values are in vb_
            if (num_passes % 2 == 1 && hi > lo)
                std::memcpy(values_ + lo, vb_ + lo, (hi - lo) * sizeof(VS));
        }
    }

    void split_on_top_digit(int t, int nt, size_t lo, size_t hi) {
        const int top = passes_.back();
        offsets_[static_cast<size_t>(t)] = counts_[static_cast<size_t>(t)][top];
#pragma omp barrier
#pragma omp single
        thread_offsets(nt);
        Histogram off = offsets_[static_cast<size_t>(t)];
        first_scatter(kb_, nullptr, lo, hi, 8 * top, off);
    }

    void finish_buckets() {
#pragma omp for schedule(dynamic, 1)
        for (int b = 0; b < 256; ++b) finish_bucket(bucket_start_[b], bucket_start_[b + 1]);
    }

    // Sequential LSD over the lower varying digits of one bucket, now in (kb_, vb_)[lo, hi).
    // Digits constant inside the bucket are skipped too.
    void finish_bucket(size_t lo, size_t hi) {
        const size_t len = hi - lo;
        if (len == 0) return;
        const int lower = static_cast<int>(passes_.size()) - 1;
        std::array<Histogram, kDigits> count;
        for (int j = 0; j < lower; ++j) count[j].fill(0);
        const U *keys = kb_ + lo;
        for (size_t i = 0; i < len; ++i)
            for (int j = 0; j < lower; ++j) ++count[j][(keys[i] >> (8 * passes_[j])) & 0xFF];
        std::array<Histogram, kDigits> offset;
        std::array<int, kDigits> shifts{};
        int q = 0;
        for (int j = 0; j < lower; ++j)
            if (exclusive_scan(count[j], offset[q], len)) shifts[q++] = 8 * passes_[j];

        U *src = kb_ + lo, *dst = ka_ + lo;
        VS *vsrc = vb_ + lo, *vdst = values_ + lo;
        K *kout = out_ ? out_ + lo : nullptr;
        if (q == 0 && kout)
            for (size_t i = 0; i < len; ++i) kout[i] = Map::unmap(src[i]);
        for (int p = 0; p < q; ++p) {
            const bool last = p == q - 1;
            scatter(Mapped{src}, last ? nullptr : dst, last ? kout : nullptr, Stored{vsrc}, vdst, 0,
                    len, shifts[p], offset[p]);
            std::swap(src, dst);
            std::swap(vsrc, vdst);
        }
        if constexpr (kHasValues) { // values end in vb_ after an even number of passes
            if (q % 2 == 0) std::memcpy(values_ + lo, vb_ + lo, len * sizeof(VS));
        }
    }

    const K *in_;
    K *out_;
    VS *values_;
    size_t n_;
    int threads_;
    bool identity_;
    std::unique_ptr<Scratch> scratch_;
    U *ka_ = nullptr, *kb_ = nullptr;
    VS *vb_ = nullptr;
    std::vector<std::array<Histogram, kDigits>> counts_; // per thread, from the counting step
    std::vector<Histogram> offsets_;                     // per thread
    std::vector<int> passes_;                            // varying digits, least significant first
    bool split_ = false;
    std::array<size_t, 257> bucket_start_{};
    std::vector<uint8_t> zero_signs_;
    size_t zeros_before_ = 0;
};

template <class K, class V>
void radix_sort(const K *in_keys, K *out_keys, V *values, size_t n, int threads, bool identity_values) {
    RadixSorter<K, V>(in_keys, out_keys, values, n, threads, identity_values).run();
}

} // namespace smelt::radix
