// Per-primitive profiling (primitives/profile.h): what it counts and what it leaves out, checked
// against the calls the test makes and a wall clock around them.
#include "primitive_test_util.h"

#include <gtest/gtest.h>

#include <chrono>
#include <numeric>

namespace smelt {
namespace {

using namespace testing_util;

// Turns profiling on for one test and leaves it off (and empty) afterwards.
struct Profiling {
    Profiling() {
        reset_profile();
        set_profiling(true);
    }
    ~Profiling() {
        set_profiling(false);
        reset_profile();
    }
};

const ProfileEntry *find(const std::vector<ProfileEntry> &entries, const std::string &name) {
    for (const ProfileEntry &e : entries)
        if (e.name == name) return &e;
    return nullptr;
}

TEST(Profile, CountsEveryCallOfEachPrimitiveByName) {
    Elementwise twice(kernels(), "kernel", test_options());
    Reduction sum(&kernels(), "a+b", "sq", DType::Float64, "0", test_options());
    Scan scan(kernels(), "ident", "store_item", "a+b", DType::Float64, "0", "", test_options());
    Array x = to_device(small_values<double>(1000, 0, 9, 3));
    Array y = zeros(1000, DType::Float64, &test_device());
    twice({x}); // compiled before the clock starts
    sum({x});
    scan({{"x", x}, {"y", y}}, -1);

    Profiling on;
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < 5; ++k)
        twice({x});
    for (int k = 0; k < 3; ++k)
        (void)sum({x});
    scan({{"x", x}, {"y", y}}, -1);
    Array keys = to_device(small_values<int32_t>(1000, 0, 50, 4));
    sort_by_key(keys);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    const std::vector<ProfileEntry> entries = profile_entries();
    const ProfileEntry *e = find(entries, "Elementwise(kernel)");
    const ProfileEntry *r = find(entries, "Reduction(a+b of sq)");
    const ProfileEntry *s = find(entries, "Scan(ident)");
    const ProfileEntry *k = find(entries, "sort_by_key(int32)");
    ASSERT_TRUE(e && r && s && k) << profile_table();
    EXPECT_EQ(e->calls, 5);
    EXPECT_EQ(r->calls, 3);
    EXPECT_EQ(s->calls, 1);
    EXPECT_EQ(k->calls, 1);
    EXPECT_EQ(e->backend, test_device().name());
    double total = 0.0;
    for (const ProfileEntry &p : entries) {
        EXPECT_GT(p.seconds, 0.0) << p.name;
        total += p.seconds;
    }
    EXPECT_LE(total, wall); // the timed calls lie inside the wall-clock interval, one after another
    // Slowest first.
    for (size_t i = 1; i < entries.size(); ++i)
        EXPECT_GE(entries[i - 1].seconds, entries[i].seconds);
    const std::string table = profile_table();
    EXPECT_NE(table.find("Elementwise(kernel)"), std::string::npos) << table;
    EXPECT_NE(table.find("total"), std::string::npos) << table;
}

TEST(Profile, OffRecordsNothingAndResetClears) {
    Elementwise twice(kernels(), "kernel", test_options());
    Array x = to_device(small_values<double>(100, 0, 9, 5));
    reset_profile();
    set_profiling(false);
    twice({x});
    EXPECT_TRUE(profile_entries().empty());
    {
        Profiling on;
        twice({x});
        EXPECT_EQ(profile_entries().size(), 1u);
        reset_profile();
        EXPECT_TRUE(profile_entries().empty());
    }
    EXPECT_FALSE(profiling());
}

TEST(Profile, NestedCallsCountInTheOutermostOnly) {
    Elementwise twice(kernels(), "kernel", test_options());
    Array x = to_device(small_values<double>(100, 0, 9, 6));
    twice({x});
    Profiling on;
    {
        profile::Scope outer(test_device(), "Outer", "block");
        twice({x});
        twice({x});
    }
    const std::vector<ProfileEntry> entries = profile_entries();
    ASSERT_EQ(entries.size(), 1u) << profile_table();
    EXPECT_EQ(entries[0].name, "Outer(block)");
    EXPECT_EQ(entries[0].calls, 1);
}

TEST(Profile, AFailedCallLeavesTheCountingIntact) {
    Elementwise twice(kernels(), "kernel", test_options());
    Array x = to_device(small_values<double>(100, 0, 9, 7));
    Profiling on;
    EXPECT_THROW(twice({x, x}), UsageError); // wrong argument count
    reset_profile();
    twice({x}); // an outermost call again: the failed one closed its scope
    const std::vector<ProfileEntry> entries = profile_entries();
    ASSERT_EQ(entries.size(), 1u) << profile_table();
    EXPECT_EQ(entries[0].name, "Elementwise(kernel)");
    EXPECT_EQ(entries[0].calls, 1);
}

} // namespace
} // namespace smelt
