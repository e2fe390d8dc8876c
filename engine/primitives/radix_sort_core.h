// The CPU radix sort (included by primitives/cpu/sort.cpp only). Stable LSD passes over digits
// of keys mapped to order-preserving unsigned integers (radix_keys.h) as they are read.
//
//   bits     each thread ORs and ANDs the mapped keys of its chunk: the bits that differ
//            between keys are the only ones worth a pass (e.g. small ints vary in a few bits).
//   small    (n < kParallelMin) one thread, sequential LSD over the varying bits.
//   split    (large inputs) one parallel stable scatter on the top 8 varying bits, then each
//            of the 256 buckets is finished by one thread: split again on its next 8 bits while
//            too big for the cache, then sequential LSD over the remaining bits in cache, with
//            wide (up to 12-bit) digits.
//   lsd      (large inputs where one top bucket would hold over half of the keys) classic
//            parallel LSD with 8-bit digits: per pass, per-thread histograms, offsets ordered by
//            (digit, thread), every thread scatters its chunk in order.
//
// Every pass is a stable counting scatter, so the sort is stable. Values move with their keys
// as raw bytes; argsort's values (0..n-1) are made by the first scatter. The last pass writes
// keys back through unmap(). -0.0 and +0.0 map to one key; their signs, in input order, are
// restored at the end, so results equal std::stable_sort's bit for bit.
#pragma once

#include "primitives/radix_digits.h"
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

template <class K, class V> class RadixSorter {
    using Map = KeyMap<K>;
    using U = typename Map::U;
    static constexpr int kBits = 8 * sizeof(U);
    static constexpr bool kHasValues = !std::is_same_v<V, NoValue>;
    using VS = std::conditional_t<kHasValues, V, char>; // storage type (unused without values)
    using Histogram = std::array<size_t, 256>;

    // Where a scatter reads keys and values from (i is the global position).
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
    RadixSorter(const K *in_keys, K *out_keys, V *values, size_t n, int threads,
                bool identity_values)
        : in_(in_keys), out_(out_keys), values_(reinterpret_cast<VS *>(values)), n_(n),
          threads_(n < kParallelMin || threads < 1 ? 1 : threads), identity_(identity_values) {}

    void run() {
        if (n_ == 0) return;
        bits_.resize(static_cast<size_t>(threads_));
        offsets_.resize(static_cast<size_t>(threads_));
#pragma omp parallel num_threads(threads_)
        {
            const int t = omp_get_thread_num(), nt = omp_get_num_threads();
            size_t lo, hi;
            chunk_of(n_, t, nt, lo, hi);
            scan_bits(t, lo, hi);
#pragma omp barrier
#pragma omp single
            plan(nt);
            if (low_bit_ == high_bit_) { // all keys equal: the input order is the stable order
                if (kHasValues && identity_) copy_values(Identity{}, values_, lo, hi - lo);
            } else if (n_ < kParallelMin) {
                sort_small();
            } else {
                count_top_digit(t, lo, hi);
#pragma omp barrier
#pragma omp single
                choose_split(nt);
                if (split_) {
                    split_scatter(t, lo, hi);
#pragma omp barrier
                    finish_buckets();
                } else {
                    lsd_passes(t, nt, lo, hi);
                }
            }
        }
        for (size_t k = 0; k < zero_signs_.size(); ++k)
            out_[zeros_before_ + k] = zero_signs_[k] ? -K(0) : K(0);
    }

private:
    struct ThreadBits {
        U any = 0, all = U(~U(0));
        size_t negative_zeros = 0;
    };

    void scan_bits(int t, size_t lo, size_t hi) {
        U any = 0, all = U(~U(0));
        size_t negative_zeros = 0;
        for (size_t i = lo; i < hi; ++i) {
            const U u = Map::map(in_[i]);
            any |= u;
            all &= u;
            if constexpr (std::is_floating_point_v<K>)
                negative_zeros += Map::is_negative_zero(in_[i]);
        }
        bits_[static_cast<size_t>(t)] = {any, all, negative_zeros};
    }

    // One thread: the varying bit range, scratch memory, zero signs.
    void plan(int nt) {
        U any = 0, all = U(~U(0));
        size_t negative_zeros = 0;
        for (int t = 0; t < nt; ++t) {
            any |= bits_[t].any;
            all &= bits_[t].all;
            negative_zeros += bits_[t].negative_zeros;
        }
        const U varying = any ^ all;
        if (varying == 0) return;
        while (!((varying >> low_bit_) & 1))
            ++low_bit_;
        high_bit_ = kBits;
        while (!((varying >> (high_bit_ - 1)) & 1))
            --high_bit_;
        // Two key buffers and one value buffer, carved from one reusable block.
        const size_t key_bytes = (n_ * sizeof(U) + 63) / 64 * 64;
        scratch_ = std::make_unique<Scratch>(2 * key_bytes + (kHasValues ? n_ * sizeof(VS) : 0));
        auto *base = static_cast<unsigned char *>(scratch_->data());
        ka_ = reinterpret_cast<U *>(base);
        kb_ = reinterpret_cast<U *>(base + key_bytes);
        vb_ = reinterpret_cast<VS *>(base + 2 * key_bytes);
        if (out_ && negative_zeros > 0) record_zero_signs();
    }

    // -0.0 and +0.0 form one run of equal keys in input order, starting after the negatives.
    void record_zero_signs() {
        for (size_t i = 0; i < n_; ++i) {
            if (in_[i] == K(0))
                zero_signs_.push_back(Map::is_negative_zero(in_[i]));
            else if (in_[i] < K(0))
                ++zeros_before_;
        }
    }

    template <class ValueSrc> void copy_values(ValueSrc value, VS *dst, size_t lo, size_t len) {
        if constexpr (kHasValues)
            for (size_t i = 0; i < len; ++i)
                dst[lo + i] = value(lo + i);
    }

    // Stable scatter of [lo, hi) by digit d: mapped keys to dst, or unmapped keys to kout, or
    // no keys when both are null; values to vdst. Positions come from (and advance) off.
    template <class KeySrc, class ValueSrc>
    void scatter(KeySrc key, U *dst, K *kout, ValueSrc value, VS *vdst, size_t lo, size_t hi,
                 Digit d, size_t *off) {
        // One loop per destination kind, so the inner loop carries no per-element branch.
        if (kout)
            scatter_loop<1>(key, dst, kout, value, vdst, lo, hi, d, off);
        else if (dst)
            scatter_loop<0>(key, dst, kout, value, vdst, lo, hi, d, off);
        else
            scatter_loop<2>(key, dst, kout, value, vdst, lo, hi, d, off);
    }
    template <int kMode, class KeySrc, class ValueSrc> // 0: mapped keys, 1: user keys, 2: none
    void scatter_loop(KeySrc key, U *dst, K *kout, ValueSrc value, VS *vdst, size_t lo, size_t hi,
                      Digit d, size_t *off) {
        const U mask = U((U(1) << d.bits) - 1);
        for (size_t i = lo; i < hi; ++i) {
            const U u = key(i);
            const size_t pos = off[(u >> d.shift) & mask]++;
            if constexpr (kMode == 1) kout[pos] = Map::unmap(u);
            if constexpr (kMode == 0) dst[pos] = u;
            if constexpr (kHasValues) vdst[pos] = value(i);
        }
    }

    // Sequential LSD of positions [lo, lo + len) over the bits [lo_bit, hi_bit). Pass 0 reads
    // through key0/value0; pass p writes buffers (k[p % 2], v[p % 2]) and the next reads them.
    // Keys end in out_ (when sorting keys), values in values_.
    template <class KeySrc, class ValueSrc>
    void sequential_lsd(KeySrc key0, ValueSrc value0, bool reads_user_keys, U *const k[2],
                        VS *const v[2], size_t lo, size_t len, int lo_bit, int hi_bit,
                        std::vector<size_t> &hist) {
        Digit digits[kBits], used[kBits];
        const int max_bits = max_digit_bits(len);
        const int nd = plan_digits(lo_bit, hi_bit, max_bits, digits);
        const size_t stride = size_t(1) << max_bits;
        hist.assign(static_cast<size_t>(nd) * stride, 0);
        for (int j = 0; j < nd; ++j) { // one digit per loop keeps shift and mask in registers
            size_t *h = hist.data() + j * stride;
            const int shift = digits[j].shift;
            const U mask = U((U(1) << digits[j].bits) - 1);
            for (size_t i = lo; i < lo + len; ++i)
                ++h[(key0(i) >> shift) & mask];
        }
        int q = 0; // digits that differ inside this range; their offsets replace their counts
        for (int j = 0; j < nd; ++j) {
            size_t *h = hist.data() + j * stride;
            if (exclusive_scan(h, hist.data() + q * stride, size_t(1) << digits[j].bits, len))
                used[q++] = digits[j];
        }
        const bool in_place_conflict = reads_user_keys && out_ == in_ && q == 1;
        for (int p = 0; p < q; ++p) {
            const bool last = p == q - 1;
            K *kout = last && out_ && !in_place_conflict ? out_ + lo : nullptr;
            U *kdst = last && !in_place_conflict ? nullptr : k[p % 2] + lo;
            size_t *off = hist.data() + p * stride;
            if (p == 0)
                scatter(key0, kdst, kout, value0, v[0] + lo, lo, lo + len, used[p], off);
            else
                scatter(Mapped{k[(p - 1) % 2]}, kdst, kout, Stored{v[(p - 1) % 2]}, v[p % 2] + lo,
                        lo, lo + len, used[p], off);
        }
        if (in_place_conflict)
            for (size_t i = 0; i < len; ++i)
                out_[lo + i] = Map::unmap(k[0][lo + i]);
        if (q == 0) { // already in order: move keys and values to where they are expected
            if (out_ && !(reads_user_keys && out_ == in_))
                for (size_t i = lo; i < lo + len; ++i)
                    out_[i] = Map::unmap(key0(i));
            if constexpr (kHasValues) copy_values(value0, values_, lo, len);
        } else if (kHasValues && v[(q - 1) % 2] != values_) {
            std::memcpy(values_ + lo, v[(q - 1) % 2] + lo, len * sizeof(VS));
        }
    }

    void sort_small() {
        std::vector<size_t> hist;
        U *const k[2] = {ka_, kb_};
        VS *const v[2] = {vb_, values_};
        if (kHasValues && identity_)
            sequential_lsd(UserKeys{in_}, Identity{}, true, k, v, 0, n_, low_bit_, high_bit_, hist);
        else
            sequential_lsd(UserKeys{in_}, Stored{values_}, true, k, v, 0, n_, low_bit_, high_bit_,
                           hist);
    }

    Digit top_digit() const {
        return {high_bit_ - 8 > low_bit_ ? high_bit_ - 8 : low_bit_, 8};
    }

    void count_top_digit(int t, size_t lo, size_t hi) {
        Histogram &h = offsets_[static_cast<size_t>(t)];
        h.fill(0);
        const Digit d = top_digit();
        for (size_t i = lo; i < hi; ++i)
            ++h[(Map::map(in_[i]) >> d.shift) & 0xFF];
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

    void choose_split(int nt) {
        Histogram total{};
        for (int t = 0; t < nt; ++t)
            for (int b = 0; b < 256; ++b)
                total[b] += offsets_[t][b];
        size_t largest = 0;
        for (size_t c : total)
            largest = c > largest ? c : largest;
        split_ = high_bit_ - low_bit_ > 8 && largest <= n_ / 2;
        if (!split_) return;
        bucket_start_[0] = 0;
        for (int b = 0; b < 256; ++b)
            bucket_start_[b + 1] = bucket_start_[b] + total[b];
        thread_offsets(nt);
    }

    void split_scatter(int t, size_t lo, size_t hi) {
        Histogram off = offsets_[static_cast<size_t>(t)];
        if (kHasValues && identity_)
            scatter(UserKeys{in_}, kb_, nullptr, Identity{}, vb_, lo, hi, top_digit(), off.data());
        else
            scatter(UserKeys{in_}, kb_, nullptr, Stored{values_}, vb_, lo, hi, top_digit(),
                    off.data());
    }

    void finish_buckets() {
        std::vector<size_t> hist; // per thread, reused across its buckets
        const int below = top_digit().shift;
#pragma omp for schedule(dynamic, 1)
        for (int b = 0; b < 256; ++b) {
            const size_t lo = bucket_start_[b], len = bucket_start_[b + 1] - lo;
            if (len) sort_bucket(0, lo, len, low_bit_, below, hist);
        }
    }

    // Sorts [lo, lo + len) by bits [lo_bit, hi_bit); the data is on `side` (0: kb_/vb_,
    // 1: ka_/values_). A bucket too big for the cache (skewed keys, e.g. floats whose top bits
    // are mostly sign and exponent) is split again on its top 8 bits first.
    void sort_bucket(int side, size_t lo, size_t len, int lo_bit, int hi_bit,
                     std::vector<size_t> &hist) {
        U *const keys[2] = {kb_, ka_};
        VS *const vals[2] = {vb_, values_};
        while (len > kResplitMin && hi_bit - lo_bit > 12) {
            const Digit d{hi_bit - 8, 8};
            Histogram count{}, off;
            for (size_t i = lo; i < lo + len; ++i)
                ++count[(keys[side][i] >> d.shift) & 0xFF];
            hi_bit = d.shift;
            if (!exclusive_scan(count.data(), off.data(), 256, len)) continue; // all equal here
            scatter(Mapped{keys[side]}, keys[1 - side] + lo, nullptr, Stored{vals[side]},
                    vals[1 - side] + lo, lo, lo + len, d, off.data());
            for (int b = 0, start = 0; b < 256; start += static_cast<int>(count[b]), ++b)
                if (count[b]) sort_bucket(1 - side, lo + start, count[b], lo_bit, hi_bit, hist);
            return;
        }
        U *const k[2] = {keys[1 - side], keys[side]};
        VS *const v[2] = {vals[1 - side], vals[side]};
        sequential_lsd(Mapped{keys[side]}, Stored{vals[side]}, false, k, v, lo, len, lo_bit, hi_bit,
                       hist);
    }

    void lsd_passes(int t, int nt, size_t lo, size_t hi) {
        Digit digits[kBits];
        const int num_passes = plan_digits(low_bit_, high_bit_, 8, digits);
        for (int p = 0; p < num_passes; ++p) {
            const Digit d = digits[p];
            // Keys: user → ka → kb → ka ...; values: user → vb → user ...
            U *src = (p % 2 == 1) ? ka_ : kb_, *dst = (p % 2 == 1) ? kb_ : ka_;
            VS *vsrc = (p % 2 == 1) ? vb_ : values_, *vdst = (p % 2 == 1) ? values_ : vb_;
            Histogram &h = offsets_[static_cast<size_t>(t)];
            h.fill(0);
            const U mask = U((U(1) << d.bits) - 1);
            for (size_t i = lo; i < hi; ++i)
                ++h[((p == 0 ? Map::map(in_[i]) : src[i]) >> d.shift) & mask];
#pragma omp barrier
#pragma omp single
            thread_offsets(nt);
            Histogram off = h;
            // The last pass writes the user's keys, except a single pass, which reads them.
            const bool last = p == num_passes - 1;
            K *kout = last && p > 0 ? out_ : nullptr;
            U *kdst = last && (p > 0 || !out_) ? nullptr : dst;
            if (p > 0)
                scatter(Mapped{src}, kdst, kout, Stored{vsrc}, vdst, lo, hi, d, off.data());
            else if (kHasValues && identity_)
                scatter(UserKeys{in_}, kdst, kout, Identity{}, vdst, lo, hi, d, off.data());
            else
                scatter(UserKeys{in_}, kdst, kout, Stored{vsrc}, vdst, lo, hi, d, off.data());
#pragma omp barrier
        }
        if (num_passes == 1 && out_)
            for (size_t i = lo; i < hi; ++i)
                out_[i] = Map::unmap(ka_[i]);
        if constexpr (kHasValues) { // after an odd number of passes the values are in vb_
            if (num_passes % 2 == 1 && hi > lo)
                std::memcpy(values_ + lo, vb_ + lo, (hi - lo) * sizeof(VS));
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
    std::vector<ThreadBits> bits_;   // per thread
    std::vector<Histogram> offsets_; // per thread
    int low_bit_ = 0, high_bit_ = 0; // the keys differ only in bits [low_bit_, high_bit_)
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
