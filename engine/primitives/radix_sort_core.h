// The CPU LSD radix sort (included by radix_sort.cpp only).
//
// One pass per 8-bit digit, least significant first. Each pass is stable, so the whole sort is:
//
//   map:     u[i] = KeyMap<K>::map(key[i]); count every digit of u per thread  (one read)
//   passes:  skip digits that are equal for all keys (e.g. the high bytes of small ints);
//            for each remaining digit d:
//              per-thread histogram of d over the thread's contiguous chunk
//              offset[t][b] = (# of keys with digit < b) + (# with digit b in chunks < t)
//              each thread scatters its chunk in order → equal digits keep their order
//   last pass writes the keys back through KeyMap<K>::unmap (argsort writes no keys)
//
// The first pass reuses the map step's per-thread counts (same chunks, same order). Values move
// with their keys as raw bytes of their size; argsort's values are the indices 0..n-1.
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

// Below this many keys the threads cost more than they save.
inline constexpr size_t kParallelMin = size_t(1) << 16;

using Histogram = std::array<size_t, 256>;

inline void chunk_of(size_t n, int t, int nt, size_t &lo, size_t &hi) {
    lo = n * static_cast<size_t>(t) / static_cast<size_t>(nt);
    hi = n * static_cast<size_t>(t + 1) / static_cast<size_t>(nt);
}

// Sorts n keys read from in_keys. When out_keys is given the sorted keys are written there
// (it may equal in_keys). `values` (n elements, or NoValue) are permuted with the keys; with
// identity_values they are first set to 0..n-1 (argsort).
template <class K, class V>
void radix_sort(const K *in_keys, K *out_keys, V *values, size_t n, int threads,
                bool identity_values) {
    using Map = KeyMap<K>;
    using U = typename Map::U;
    constexpr int kDigits = sizeof(U);
    constexpr bool kHasValues = !std::is_same_v<V, NoValue>;
    constexpr bool kFloat = std::is_floating_point_v<K>;
    if (n == 0) return;
    if (n < kParallelMin || threads < 1) threads = 1;

    std::unique_ptr<U[]> ka(new U[n]);
    std::vector<std::array<Histogram, kDigits>> counts(static_cast<size_t>(threads));
    std::vector<size_t> neg_zeros(static_cast<size_t>(threads), 0);
    int map_threads = 1;

#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
#pragma omp single
        map_threads = nt;
        size_t lo, hi;
        chunk_of(n, t, nt, lo, hi);
        auto &c = counts[static_cast<size_t>(t)];
        for (auto &h : c)
            h.fill(0);
        size_t nz = 0;
        for (size_t i = lo; i < hi; ++i) {
            const U u = Map::map(in_keys[i]);
            ka[i] = u;
            for (int d = 0; d < kDigits; ++d)
                ++c[d][(u >> (8 * d)) & 0xFF];
            if constexpr (kHasValues) {
                if (identity_values) values[i] = static_cast<V>(i);
            }
            if constexpr (kFloat) nz += Map::is_negative_zero(in_keys[i]);
        }
        neg_zeros[static_cast<size_t>(t)] = nz;
    }

    // Digits that differ between keys; the others leave the order unchanged.
    std::vector<int> passes;
    for (int d = 0; d < kDigits; ++d) {
        Histogram total{};
        for (int t = 0; t < map_threads; ++t)
            for (int b = 0; b < 256; ++b)
                total[b] += counts[t][d][b];
        bool constant = false;
        for (int b = 0; b < 256; ++b)
            constant |= total[b] == n;
        if (!constant) passes.push_back(d);
    }
    const int num_passes = static_cast<int>(passes.size());
    if (num_passes == 0) return; // all keys equal: the input order is the stable order

    // -0.0 and +0.0 sort as equal keys, so they end up as one run in input order. Record that
    // order's signs now (the last pass overwrites the keys) and restore them at the end.
    std::vector<uint8_t> zero_signs;
    size_t zeros_before = 0; // number of keys below zero = start of the zero run
    if constexpr (kFloat) {
        size_t total_neg_zeros = 0;
        for (size_t v : neg_zeros)
            total_neg_zeros += v;
        if (out_keys && total_neg_zeros > 0) {
            for (size_t i = 0; i < n; ++i) {
                if (in_keys[i] == K(0))
                    zero_signs.push_back(Map::is_negative_zero(in_keys[i]));
                else if (in_keys[i] < K(0))
                    ++zeros_before;
            }
        }
    }

    std::unique_ptr<U[]> kb(num_passes > 1 ? new U[n] : nullptr);
    using VStore = std::conditional_t<kHasValues, V, char>;
    std::unique_ptr<VStore[]> vb(kHasValues ? new VStore[n] : nullptr);
    std::vector<Histogram> offsets(static_cast<size_t>(threads));

#pragma omp parallel num_threads(threads)
    {
        const int t = omp_get_thread_num(), nt = omp_get_num_threads();
        size_t lo, hi;
        chunk_of(n, t, nt, lo, hi);
        U *src = ka.get(), *dst = kb.get();
        VStore *vsrc = nullptr, *vdst = nullptr;
        if constexpr (kHasValues) {
            vsrc = values;
            vdst = vb.get();
        }
        for (int p = 0; p < num_passes; ++p) {
            const int shift = 8 * passes[p];
            Histogram &h = offsets[static_cast<size_t>(t)];
            if (p == 0 && nt == map_threads) {
                h = counts[static_cast<size_t>(t)][passes[0]];
            } else {
                h.fill(0);
                for (size_t i = lo; i < hi; ++i)
                    ++h[(src[i] >> shift) & 0xFF];
            }
#pragma omp barrier
#pragma omp single
            {
                size_t running = 0;
                for (int b = 0; b < 256; ++b)
                    for (int u = 0; u < nt; ++u) {
                        size_t c = offsets[static_cast<size_t>(u)][b];
                        offsets[static_cast<size_t>(u)][b] = running;
                        running += c;
                    }
            }
            Histogram off = h;
            const bool last = p == num_passes - 1;
            if (last && out_keys) {
                for (size_t i = lo; i < hi; ++i) {
                    const U u = src[i];
                    const size_t pos = off[(u >> shift) & 0xFF]++;
                    out_keys[pos] = Map::unmap(u);
                    if constexpr (kHasValues) vdst[pos] = vsrc[i];
                }
            } else if (last) {
                for (size_t i = lo; i < hi; ++i) {
                    const size_t pos = off[(src[i] >> shift) & 0xFF]++;
                    if constexpr (kHasValues) vdst[pos] = vsrc[i];
                }
            } else {
                for (size_t i = lo; i < hi; ++i) {
                    const U u = src[i];
                    const size_t pos = off[(u >> shift) & 0xFF]++;
                    dst[pos] = u;
                    if constexpr (kHasValues) vdst[pos] = vsrc[i];
                }
            }
#pragma omp barrier
            std::swap(src, dst);
            std::swap(vsrc, vdst);
        }
        // After an odd number of passes the values are in the scratch buffer.
        if constexpr (kHasValues) {
            if (num_passes % 2 == 1 && hi > lo)
                std::memcpy(values + lo, vb.get() + lo, (hi - lo) * sizeof(V));
        }
    }

    if (!zero_signs.empty()) {
        for (size_t k = 0; k < zero_signs.size(); ++k)
            out_keys[zeros_before + k] = zero_signs[k] ? -K(0) : K(0);
    }
}

} // namespace smelt::radix
