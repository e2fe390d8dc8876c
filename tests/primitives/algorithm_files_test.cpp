// The embedded algorithm files (engine/primitives/algorithms/*.kernel) and the per-call header
// helpers of primitives/algorithm_source.h.
#include "primitives/algorithm_source.h"
#include "support/error.h"

#include <gtest/gtest.h>

#include <string>

namespace smelt {
namespace {

using primitives::algorithm_source;
using primitives::kAlgorithmFiles;

size_t count(const std::string &text, const std::string &part) {
    size_t n = 0;
    for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++n;
    return n;
}

// Include lines are resolved when the files are embedded: no device compiler sees one. No file
// names the 64-bit float type, which would enable fp64 in every OpenCL unit built from it.
TEST(AlgorithmFiles, EmbeddedTextHasNoIncludeAndNoDoubleType) {
    size_t files = 0;
    for (const auto *f = kAlgorithmFiles; f->name != nullptr; ++f, ++files) {
        const std::string text = f->text;
        EXPECT_EQ(text.find("#include"), std::string::npos) << f->name;
        EXPECT_EQ(text.find("double"), std::string::npos) << f->name;
    }
    EXPECT_GE(files, 10u);
}

// tiled_reduce_scan.kernel takes tiled_load.kernel at two places (the first tile, the next one).
TEST(AlgorithmFiles, AnIncludedFileAppearsWhereverItIsIncluded) {
    const std::string load = algorithm_source("tiled_load.kernel");
    ASSERT_NE(load.find("smelt_v[smelt_k] = SMELT_VALUE(smelt_i);"), std::string::npos);
    EXPECT_EQ(count(algorithm_source("tiled_reduce_scan.kernel"), load), 2u);
    // Nested: scan_warp_tile.kernel takes scan_warp_scan.kernel, and the three-kernel scan takes
    // both in its upsweep and downsweep, the warp scan once more in its spine.
    const std::string rts = algorithm_source("scan_reduce_then_scan.kernel");
    EXPECT_EQ(count(rts, algorithm_source("scan_warp_tile.kernel")), 2u);
    EXPECT_EQ(count(rts, algorithm_source("scan_warp_scan.kernel")), 3u);
    EXPECT_THROW(algorithm_source("no_such.kernel"), InternalError);
}

// OpenCL's work-group tree and scan in local memory are written once, and every kernel that
// combines a group's pairs takes them by include: the chunked and tiled kernels and the final
// kernels both layouts share.
TEST(AlgorithmFiles, OpenCLGroupStepsAreWrittenOnce) {
    const std::string tree = algorithm_source("group_tree.kernel");
    const std::string scan = algorithm_source("group_scan.kernel");
    ASSERT_NE(tree.find("smelt_s < SMELT_MAX_GROUP_SIZE"), std::string::npos);
    for (const char *name : {"reduce_chunked_opencl.kernel", "reduce_final_opencl.kernel"})
        EXPECT_EQ(count(algorithm_source(name), tree), 1u) << name;
    for (const char *name : {"scan_chunked_opencl.kernel", "scan_groups_opencl.kernel"})
        EXPECT_EQ(count(algorithm_source(name), scan), 1u) << name;
    const std::string tiled = algorithm_source("tiled_reduce_scan.kernel");
    EXPECT_EQ(count(tiled, tree), 1u);
    EXPECT_EQ(count(tiled, scan), 1u);
    // The final kernels split the group results with chunk_split.kernel's smelt_chunk_begin.
    for (const char *name : {"reduce_final_opencl.kernel", "scan_groups_opencl.kernel"})
        EXPECT_EQ(count(algorithm_source(name), "smelt_chunk_begin("), 2u) << name;
}

TEST(AlgorithmFiles, DefineLineIsOneLine) {
    EXPECT_EQ(primitives::define_line("SMELT_T", "float"), "#define SMELT_T float\n");
    EXPECT_THROW(primitives::define_line("SMELT_T", "a\nb"), InternalError);
}

} // namespace
} // namespace smelt
