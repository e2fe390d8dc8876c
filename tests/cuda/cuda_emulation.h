// A small CUDA emulator for testing generated kernels on the CPU (cuda_emulation_test.cpp):
// enough of CUDA C++ to run the primitives' wrappers with real block and warp semantics.
//
//   - a block is blockDim.x std::threads; blocks run one after another, so a function-scope
//     `__shared__` array (here `static`) is shared by the threads of the running block only;
//   - __syncthreads() is a std::barrier over the block, __syncwarp() one over the warp; a
//     thread that returns drops out of both (as exited threads do on the GPU);
//   - __shfl_{up,down,}_sync and __ballot_sync exchange values through a per-warp slot array
//     between two warp barriers, so every lane must call them together (as the generated code
//     does);
//   - blocks run in launch order, so a single-pass scan's look-back always finds its
//     predecessors published (tests set up other states by writing the status words).
//
// Only 1-D launches with blockDim.x a multiple of 32. Not a general emulator: no dynamic
// shared memory, no atomics on shared memory beyond atomicAdd, no cooperative groups.
#pragma once

#include <array>
#include <atomic>
#include <barrier>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};

inline thread_local dim3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

namespace emu {

inline std::unique_ptr<std::barrier<>> block_barrier;
inline std::vector<std::unique_ptr<std::barrier<>>> warp_barriers;
inline std::vector<std::array<unsigned char, 8 * 32>> warp_slots;
inline thread_local int t_warp = 0, t_lane = 0;

template <class T> T exchange(T v, int src, bool valid) {
    std::memcpy(&warp_slots[t_warp][8 * t_lane], &v, sizeof(T));
    warp_barriers[t_warp]->arrive_and_wait();
    T out = v;
    if (valid) std::memcpy(&out, &warp_slots[t_warp][8 * src], sizeof(T));
    warp_barriers[t_warp]->arrive_and_wait();
    return out;
}

// Bit l set when lane l's predicate holds; every lane must call it together.
inline unsigned ballot(int pred) {
    const int v = pred != 0;
    std::memcpy(&warp_slots[t_warp][8 * t_lane], &v, sizeof v);
    warp_barriers[t_warp]->arrive_and_wait();
    unsigned mask = 0;
    for (int l = 0; l < 32; ++l) {
        int x = 0;
        std::memcpy(&x, &warp_slots[t_warp][8 * l], sizeof x);
        if (x) mask |= 1u << l;
    }
    warp_barriers[t_warp]->arrive_and_wait();
    return mask;
}

// Runs kernel<<<grid, block>>>(args...) to completion.
template <class... P, class... A>
void launch(void (*kernel)(P...), unsigned grid, unsigned block, A... args) {
    gridDim = {grid, 1, 1};
    blockDim = {block, 1, 1};
    const unsigned warps = block / 32;
    for (unsigned b = 0; b < grid; ++b) {
        block_barrier = std::make_unique<std::barrier<>>(block);
        warp_barriers.clear();
        for (unsigned w = 0; w < warps; ++w)
            warp_barriers.push_back(std::make_unique<std::barrier<>>(32));
        warp_slots.assign(warps, {});
        std::vector<std::thread> threads;
        for (unsigned t = 0; t < block; ++t)
            threads.emplace_back([=] {
                threadIdx = {t, 0, 0};
                blockIdx = {b, 0, 0};
                t_warp = int(t / 32);
                t_lane = int(t % 32);
                kernel(static_cast<P>(args)...);
                warp_barriers[t_warp]->arrive_and_drop();
                block_barrier->arrive_and_drop();
            });
        for (auto &th : threads)
            th.join();
    }
}

} // namespace emu

inline void __syncthreads() {
    emu::block_barrier->arrive_and_wait();
}
inline void __syncwarp(unsigned = 0xffffffffu) {
    emu::warp_barriers[emu::t_warp]->arrive_and_wait();
}
template <class T> T __shfl_up_sync(unsigned, T v, unsigned d) {
    return emu::exchange(v, emu::t_lane - int(d), emu::t_lane - int(d) >= 0);
}
template <class T> T __shfl_down_sync(unsigned, T v, unsigned d) {
    return emu::exchange(v, emu::t_lane + int(d), emu::t_lane + int(d) < 32);
}
template <class T> T __shfl_sync(unsigned, T v, int lane) {
    return emu::exchange(v, lane & 31, true);
}
inline unsigned __ballot_sync(unsigned, int pred) {
    return emu::ballot(pred);
}
inline int __all_sync(unsigned, int pred) {
    return emu::ballot(pred) == 0xffffffffu;
}
inline int __ffs(unsigned x) {
    return __builtin_ffs(int(x));
}
inline void __threadfence() {
    std::atomic_thread_fence(std::memory_order_seq_cst);
}
template <class T> T atomicAdd(T *p, T v) {
    return std::atomic_ref<T>(*p).fetch_add(v);
}
inline float __int_as_float(int i) {
    float f;
    std::memcpy(&f, &i, 4);
    return f;
}

#define __device__
#define __global__
#define __shared__ static
#define __forceinline__ inline
#define __align__(n) alignas(n)
