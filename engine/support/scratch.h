// Reusable host scratch memory for engine-side algorithms (radix sort). On large inputs,
// first-touch page faults of fresh temporaries cost as much as the algorithm itself, so the
// largest block is kept after use for the next caller (e.g. the sort of every MD step), and big
// blocks ask for transparent huge pages.
#pragma once

#include <cstddef>

namespace smelt {

class Scratch {
public:
    // At least `bytes` bytes, 2 MiB aligned: the cached block when it is large enough and
    // free, else a new mapping.
    explicit Scratch(size_t bytes);
    ~Scratch(); // gives the block back to the cache (the larger of it and the cached one stays)
    Scratch(const Scratch &) = delete;
    Scratch &operator=(const Scratch &) = delete;

    void *data() const { return data_; }
    size_t size() const { return size_; }

private:
    void *base_ = nullptr; // the mapping
    size_t mapped_ = 0;
    void *data_ = nullptr; // aligned start inside it
    size_t size_ = 0;
};

// Returns the cached block to the system.
void release_scratch_cache();

} // namespace smelt
