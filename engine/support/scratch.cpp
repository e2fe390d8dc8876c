#include "support/scratch.h"

#include <cstdint>
#include <mutex>
#include <new>
#include <sys/mman.h>
#include <utility>

namespace smelt {

namespace {

constexpr size_t kHugePage = size_t(2) << 20;

struct Block {
    void *base = nullptr;
    size_t mapped = 0;
    void *data = nullptr;
    size_t size = 0;
};

std::mutex g_mutex;
Block g_cached;

size_t round_up(size_t v, size_t to) { return (v + to - 1) / to * to; }

Block map_block(size_t bytes) {
    Block b;
    b.size = round_up(bytes ? bytes : 1, kHugePage);
    b.mapped = b.size + kHugePage; // room to align the start to a huge page
    b.base = ::mmap(nullptr, b.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (b.base == MAP_FAILED) throw std::bad_alloc();
    auto start = reinterpret_cast<uintptr_t>(b.base);
    b.data = reinterpret_cast<void *>(round_up(start, kHugePage));
    ::madvise(b.data, b.size, MADV_HUGEPAGE); // advisory: fine if THP is off
    return b;
}

void unmap_block(const Block &b) {
    if (b.base) ::munmap(b.base, b.mapped);
}

} // namespace

Scratch::Scratch(size_t bytes) {
    Block b;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (g_cached.base && g_cached.size >= bytes) b = std::exchange(g_cached, Block{});
    }
    if (!b.base) b = map_block(bytes);
    base_ = b.base;
    mapped_ = b.mapped;
    data_ = b.data;
    size_ = b.size;
}

Scratch::~Scratch() {
    Block b{base_, mapped_, data_, size_};
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        if (b.size > g_cached.size) std::swap(b, g_cached);
    }
    unmap_block(b);
}

void release_scratch_cache() {
    Block b;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        b = std::exchange(g_cached, Block{});
    }
    unmap_block(b);
}

} // namespace smelt
