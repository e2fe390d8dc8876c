// CUDA graphs (skipped without a GPU): a recorded sequence of primitive calls replays with the
// recorded arguments; reads inside a recording are refused and leave the backend usable.
#include "cuda_test_util.h"

#ifdef SMELT_HAVE_CUDA

#include "backends/cuda/cuda_graph.h"
#include "primitives/primitive_test_util.h"

#include <numeric>

namespace smelt {
namespace {

using namespace testing_util;

TEST(CudaGraph, RecordedCallsReplayInOrder) {
    SMELT_REQUIRE_CUDA();
    const Options on_gpu{"cuda", Precision::Double};
    const size_t n = 100003;
    Elementwise scale_shift(kernels(), "scale_shift", on_gpu); // y = a*x + b
    Elementwise twice(kernels(), "kernel", on_gpu);            // x = 2*x
    Scan cumsum(kernels(), "ident", "store_item", "a+b", DType::Float64, "0", "", on_gpu);
    std::vector<double> x0(n);
    for (size_t i = 0; i < n; ++i)
        x0[i] = double(i % 5);
    Array x = Array::from_vector(x0, &cuda_dev), y = zeros(n, DType::Float64, &cuda_dev),
          c = zeros(n, DType::Float64, &cuda_dev);
    // First calls compile and load outside the recording; then reset x.
    scale_shift({x, y, 3.0, 1.0});
    twice({x});
    cumsum({{"x", y}, {"y", c}});
    x = Array::from_vector(x0, &cuda_dev);

    cuda::Graph g = cuda::record([&] {
        scale_shift({x, y, 3.0, 1.0});
        twice({x});
        cumsum({{"x", y}, {"y", c}});
    });
    ASSERT_FALSE(g.empty());
    // Recording ran nothing.
    EXPECT_EQ(x.to_vector<double>(), x0);

    std::vector<double> hx = x0, hy(n), hc(n);
    for (int replay = 0; replay < 3; ++replay) {
        g.replay();
        for (size_t i = 0; i < n; ++i)
            hy[i] = 3.0 * hx[i] + 1.0;
        for (auto &v : hx)
            v *= 2;
        std::inclusive_scan(hy.begin(), hy.end(), hc.begin());
    }
    EXPECT_EQ(x.to_vector<double>(), hx);
    EXPECT_EQ(y.to_vector<double>(), hy);
    EXPECT_EQ(c.to_vector<double>(), hc); // integer-valued sums: exact in any order
}

TEST(CudaGraph, ReadingWhileRecordingIsRefused) {
    SMELT_REQUIRE_CUDA();
    Array a = Array::from_vector(std::vector<int32_t>{1, 2, 3}, &cuda_dev);
    EXPECT_THROW(cuda::record([&] { a.to_vector<int32_t>(); }), UsageError);
    EXPECT_EQ(a.to_vector<int32_t>(), (std::vector<int32_t>{1, 2, 3})); // still usable
    cuda::Graph empty;
    EXPECT_THROW(empty.replay(), UsageError);
}

} // namespace
} // namespace smelt

#endif
