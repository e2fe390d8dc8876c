// Low-level kernels on the GPU (skipped without one): LID/GID/LDIM, LOCAL_MEM matrices and
// LocalMem arguments in shared memory, local_barrier, int and float atomics returning the old
// value, recursion. Launched exactly as RawKernel launches: backend.launch with KernelArgs.
#include "cuda_test_util.h"

#ifdef SMELT_HAVE_CUDA

#include "primitives/cuda/raw_kernel.h"
#include "primitives/program_data.h"

#include <algorithm>
#include <numeric>

namespace smelt {
namespace {

using namespace testing_util;

void *kernel(cuda::CudaBackend &b, const std::string &func) {
    CompileOptions o;
    o.backend = "cuda";
    auto m = build_ir(*cuda_kernels().data().module, {{func, {}, {}}}, o);
    auto unit = primitives::cuda::raw_kernel_unit(*m, func);
    ModuleSource src;
    src.source = unit.source;
    src.symbols = {unit.entry};
    src.primitive = "raw_kernel";
    src.signature = func;
    static std::vector<std::shared_ptr<Module>> keep; // modules outlive the test's launches
    keep.push_back(b.compile(src));
    return keep.back()->function(unit.entry);
}

TEST(CudaRawKernel, BlockSumThroughSharedMemoryAndBarriers) {
    SMELT_REQUIRE_CUDA();
    const int n = 1000, block = 64, blocks = (n + block - 1) / block;
    std::vector<double> x(n);
    for (int i = 0; i < n; ++i)
        x[i] = double(i % 17) - 3.0;
    Array X = Array::from_vector(x, &cuda_dev), P = zeros(blocks, DType::Float64, &cuda_dev);
    const KernelArg args[] = {KernelArg::of(X.buffer()), KernelArg::of(P.buffer()),
                              KernelArg::of(int32_t(n))};
    cuda_dev.launch(kernel(cuda_dev, "block_sum"), LaunchDims::linear(blocks * block, block), args);
    auto partial = P.to_vector<double>();
    for (int b = 0; b < blocks; ++b) {
        double want = 0;
        for (int i = b * block; i < std::min(n, (b + 1) * block); ++i)
            want += x[i];
        EXPECT_EQ(partial[b], want) << "block " << b;
    }
}

TEST(CudaRawKernel, LocalMemArgumentReversesEachBlock) {
    SMELT_REQUIRE_CUDA();
    const int n = 300, block = 128, blocks = (n + block - 1) / block;
    std::vector<int32_t> x(n);
    std::iota(x.begin(), x.end(), 0);
    Array X = Array::from_vector(x, &cuda_dev),
          Y = Array::from_vector(std::vector<int32_t>(n, -1), &cuda_dev);
    const KernelArg args[] = {KernelArg::of(X.buffer()), KernelArg::of(Y.buffer()),
                              KernelArg::local_memory(block * sizeof(int32_t)),
                              KernelArg::of(int32_t(n))};
    cuda_dev.launch(kernel(cuda_dev, "reverse_blocks"), LaunchDims::linear(blocks * block, block),
                    args);
    auto y = Y.to_vector<int32_t>();
    for (int i = 0; i < n; ++i) {
        const int base = i / block * block, j = block - 1 - (i - base);
        EXPECT_EQ(y[i], base + j < n ? x[base + j] : -1) << i;
    }
}

TEST(CudaRawKernel, TwoLocalMemArgumentsAndAtomicsReturningTheOldValue) {
    SMELT_REQUIRE_CUDA();
    const int block = 32, blocks = 40, total_threads = block * blocks;
    Array out = zeros(total_threads, DType::Int32, &cuda_dev),
          counter = zeros(1, DType::Int32, &cuda_dev), total = zeros(1, DType::Float32, &cuda_dev),
          dtotal = zeros(1, DType::Float64, &cuda_dev);
    // a float region then a double one: the backend aligns each LocalMem region to 16 bytes.
    const KernelArg args[] = {KernelArg::local_memory(block * 4 + 4),
                              KernelArg::local_memory(block * 8),
                              KernelArg::of(out.buffer()),
                              KernelArg::of(counter.buffer()),
                              KernelArg::of(total.buffer()),
                              KernelArg::of(dtotal.buffer())};
    cuda_dev.launch(kernel(cuda_dev, "two_local"), LaunchDims::linear(total_threads, block), args);
    auto olds = out.to_vector<int32_t>();
    std::sort(olds.begin(), olds.end());
    std::vector<int32_t> want(total_threads);
    std::iota(want.begin(), want.end(), 0);
    EXPECT_EQ(olds, want); // every old value exactly once
    EXPECT_EQ(counter.to_vector<int32_t>()[0], total_threads);
    EXPECT_EQ(total.to_vector<float>()[0], 1.5f * total_threads);   // exact in float
    EXPECT_EQ(dtotal.to_vector<double>()[0], 2.25 * total_threads); // exact in double
}

TEST(CudaRawKernel, RecursiveDeviceFunction) {
    SMELT_REQUIRE_CUDA();
    const int n = 21;
    Array out = zeros(n, DType::Int64, &cuda_dev);
    const KernelArg args[] = {KernelArg::of(out.buffer()), KernelArg::of(int32_t(n))};
    cuda_dev.launch(kernel(cuda_dev, "factorials"), LaunchDims::linear(64, 32), args);
    auto v = out.to_vector<int64_t>();
    int64_t f = 1;
    for (int i = 0; i < n; ++i) {
        if (i > 1) f *= i;
        EXPECT_EQ(v[i], f) << i;
    }
}

} // namespace
} // namespace smelt

#endif
