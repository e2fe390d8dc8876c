// Order-preserving maps from sort keys to unsigned integers, so one LSD radix sort over
// unsigned digits sorts every dtype:
//   unsigned ints: unchanged;  signed ints: flip the sign bit;
//   floats: negative → flip all bits, non-negative → flip the sign bit. -0.0 is mapped like
//   +0.0 (they compare equal, as with operator<), and every NaN to the largest value (NaNs sort
//   last, like NumPy; they come back as one canonical quiet NaN).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace smelt::radix {

template <class K, class Enable = void> struct KeyMap;

template <class K> struct KeyMap<K, std::enable_if_t<std::is_integral_v<K>>> {
    using U = std::make_unsigned_t<K>;
    static constexpr U kFlip = std::is_signed_v<K> ? U(U(1) << (8 * sizeof(K) - 1)) : U(0);
    static U map(K k) { return static_cast<U>(static_cast<U>(k) ^ kFlip); }
    static K unmap(U u) { return static_cast<K>(static_cast<U>(u ^ kFlip)); }
    static bool is_negative_zero(K) { return false; }
};

template <class F, class Bits> struct FloatKeyMap {
    using U = Bits;
    static constexpr U kSign = U(1) << (8 * sizeof(U) - 1);
    static constexpr U kExpMask = ~kSign; // magnitude bits
    static constexpr U kInf = std::is_same_v<F, float> ? U(0x7F800000u) : U(0x7FF0000000000000ull);

    static U map(F f) {
        U bits;
        std::memcpy(&bits, &f, sizeof bits);
        if (bits == kSign) bits = 0; // -0.0 sorts as +0.0
        U u = (bits & kSign) ? U(~bits) : U(bits | kSign);
        return (bits & kExpMask) > kInf ? U(~U(0)) : u;
    }
    static F unmap(U u) {
        U bits = (u & kSign) ? U(u ^ kSign) : U(~u);
        F f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }
    static U mapped_zero() { return kSign; }
    static bool is_negative_zero(F f) {
        U bits;
        std::memcpy(&bits, &f, sizeof bits);
        return bits == kSign;
    }
};

template <> struct KeyMap<float> : FloatKeyMap<float, uint32_t> {};
template <> struct KeyMap<double> : FloatKeyMap<double, uint64_t> {};

} // namespace smelt::radix
