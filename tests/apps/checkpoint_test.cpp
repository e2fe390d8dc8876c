// Checkpoint files: every entry type round-trips exactly, the target is replaced only by a
// complete file (written beside it, then renamed), and a file that does not fit says why.
#include "common/checkpoint.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <unistd.h>

using namespace smelt::apps;
namespace fs = std::filesystem;

namespace {

fs::path temp_file(const std::string &name) {
    return fs::temp_directory_path() / ("smelt_ck_" + std::to_string(getpid()) + "_" + name);
}

Checkpoint sample_checkpoint() {
    Checkpoint ck;
    ck.app = "md2d";
    ck.step = 1234567890123;
    ck.time = 0.1 + 0.2; // not a short decimal: must round-trip bit for bit
    ck.config_yaml = "system: {n: 3}\n# a comment\n";
    ck.put("x", std::vector<double>{1.0 / 3.0, -0.0, 1e-310, std::nextafter(1.0, 2.0)});
    ck.put("image", std::vector<int64_t>{-1, 0, std::numeric_limits<int64_t>::max()});
    ck.put("empty", std::vector<double>{});
    ck.put_scalar("rng_key", uint64_t(0xFEDCBA9876543210ull));
    ck.put_scalar("thermostat_xi", -2.5);
    ck.put_scalar("rebuilds", int64_t(17));
    return ck;
}

TEST(Checkpoint, EntriesRoundTripExactly) {
    fs::path path = temp_file("roundtrip.h5");
    const Checkpoint ck = sample_checkpoint();
    if (!SMELT_APPS_HAVE_HDF5) {
        EXPECT_THROW(write_checkpoint(path.string(), ck), std::runtime_error);
        GTEST_SKIP() << "built without HDF5: checkpoint files cannot be written";
    }
    write_checkpoint(path.string(), ck);
    EXPECT_FALSE(fs::exists(path.string() + ".tmp"));
    Checkpoint back = read_checkpoint(path.string());
    EXPECT_EQ(back.app, "md2d");
    EXPECT_EQ(back.step, 1234567890123);
    EXPECT_EQ(back.time, 0.1 + 0.2);
    EXPECT_EQ(back.config_yaml, ck.config_yaml);
    EXPECT_EQ(back.source, path.string());
    EXPECT_EQ(back.entries().size(), ck.entries().size());
    const auto &x = back.get<double>("x", 4);
    const auto &want = ck.get<double>("x");
    for (size_t i = 0; i < 4; ++i) // bit patterns (-0.0 and the subnormal included)
        EXPECT_EQ(std::memcmp(&x[i], &want[i], sizeof(double)), 0) << i;
    EXPECT_EQ(back.get<int64_t>("image"), ck.get<int64_t>("image"));
    EXPECT_TRUE(back.get<double>("empty").empty());
    EXPECT_EQ(back.scalar<uint64_t>("rng_key"), 0xFEDCBA9876543210ull);
    EXPECT_EQ(back.scalar<double>("thermostat_xi"), -2.5);
    EXPECT_EQ(back.scalar<int64_t>("rebuilds"), 17);
    fs::remove(path);
}

TEST(Checkpoint, MissingOrMismatchedEntriesNameTheFileAndEntry) {
    Checkpoint ck = sample_checkpoint();
    ck.source = "run/ck.h5";
    auto message = [&](auto f) {
        try {
            f();
        } catch (const CheckpointError &e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_EQ(message([&] { ck.get<double>("vx"); }),
              "run/ck.h5: entry 'vx' is missing (written by md2d)");
    EXPECT_EQ(message([&] { ck.get<int64_t>("x"); }),
              "run/ck.h5: entry 'x' has another type (written by md2d)");
    EXPECT_EQ(message([&] { ck.get<double>("x", 5); }),
              "run/ck.h5: entry 'x' has 4 values, expected 5 (written by md2d)");
    EXPECT_THROW(ck.put("not a name", std::vector<double>{}), std::invalid_argument);
    EXPECT_THROW(ck.put("1x", std::vector<double>{}), std::invalid_argument);
}

TEST(Checkpoint, ReplacingKeepsAValidFileAndBadFilesAreErrors) {
    if (!SMELT_APPS_HAVE_HDF5) GTEST_SKIP() << "built without HDF5";
    fs::path path = temp_file("replace.h5");
    Checkpoint a = sample_checkpoint();
    write_checkpoint(path.string(), a);
    // A leftover temporary of a write that was killed does not matter: the next write replaces
    // it, and the checkpoint itself was never touched by it.
    { std::ofstream(path.string() + ".tmp") << "torn"; }
    EXPECT_EQ(read_checkpoint(path.string()).step, a.step);
    a.step = 5;
    write_checkpoint(path.string(), a);
    EXPECT_EQ(read_checkpoint(path.string()).step, 5);
    EXPECT_FALSE(fs::exists(path.string() + ".tmp"));

    EXPECT_THROW(read_checkpoint(temp_file("absent.h5").string()), CheckpointError);
    fs::path text = temp_file("text.h5");
    { std::ofstream(text) << "not HDF5\n"; }
    try {
        read_checkpoint(text.string());
        FAIL();
    } catch (const CheckpointError &e) {
        EXPECT_NE(std::string(e.what()).find(text.string()), std::string::npos) << e.what();
    }
    EXPECT_THROW(write_checkpoint("/nonexistent-dir/ck.h5", a), std::runtime_error);
    fs::remove(path);
    fs::remove(text);
}

} // namespace
