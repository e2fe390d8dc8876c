// The backend table (support/backend_table.h): how specs find their row, and that the rows the
// stages read agree with what the backends made from them are.
#include "backends/registry.h"
#include "codegen/dialect.h"
#include "primitives/target.h"
#include "support/backend_table.h"
#include "support/error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace smelt {
namespace {

std::string row_name(const std::string &spec) {
    const BackendRow *row = find_backend_row(spec);
    return row ? row->name : "(none)";
}

TEST(BackendTable, SpecsFindTheirRow) {
    EXPECT_EQ(row_name("cpu"), "cpu");
    EXPECT_EQ(row_name("cpu:openmp"), "cpu"); // the alias
    EXPECT_EQ(row_name("cpu:serial"), "cpu:serial");
    EXPECT_EQ(row_name("opencl"), "opencl");
    EXPECT_EQ(row_name("opencl:NVIDIA:0"), "opencl"); // a device spec
    EXPECT_EQ(row_name("cuda:1"), "cuda");
    EXPECT_EQ(row_name("vulkan"), "(none)");
    EXPECT_EQ(row_name(""), "(none)");
    EXPECT_EQ(backend_families_text(), "cpu, opencl or cuda");
    EXPECT_EQ(backend_families_text(" or ", true), "opencl or cuda");
}

TEST(BackendTable, FamiliesAreTheRowsFamiliesOnceEach) {
    using Names = std::vector<std::string>;
    EXPECT_EQ(backend_families(), (Names{"cpu", "opencl", "cuda"}));
    EXPECT_EQ(backend_families(true), (Names{"opencl", "cuda"}));
    // Every row's family is listed, once, and the work-group list has exactly the families of
    // the rows with work-groups.
    const Names all = backend_families(), groups = backend_families(true);
    for (const BackendRow &row : backend_rows()) {
        SCOPED_TRACE(row.name);
        EXPECT_EQ(std::count(all.begin(), all.end(), row.family), 1);
        EXPECT_EQ(std::count(groups.begin(), groups.end(), row.family), row.work_groups ? 1 : 0);
    }
}

TEST(BackendTable, RowsAgreeWithWhatTheyMake) {
    std::set<std::string> names;
    for (const BackendRow &row : backend_rows()) {
        SCOPED_TRACE(row.name);
        EXPECT_TRUE(names.insert(row.name).second) << "two rows named so";
        // Every row has a code generator, and the family's dialect is the one asked by name.
        ASSERT_NE(row.dialect, nullptr);
        EXPECT_EQ(&row.dialect(), &codegen::dialect_for_backend(row.family));
        const BackendStatus status = row.status();
        EXPECT_EQ(status.name, row.name);
        if (!status.available) continue;
        // An available backend is made from its row, is of the row's family, and has a target.
        Backend &b = get_backend(row.name);
        EXPECT_EQ(b.name(), row.family);
        ASSERT_NE(row.target, nullptr);
        EXPECT_EQ(&primitives::primitive_target(b), &row.target(&b));
    }
    EXPECT_TRUE(names.count("cpu") && names.count("opencl") && names.count("cuda"));
}

// device_count says which "NAME:N" exist: the last one is made, the next one is refused. An MPI
// job's ranks pick their device from it, so a count of one on a two-GPU node put both on one.
TEST(BackendTable, DeviceCountNumbersTheDevicesNameNSelects) {
    EXPECT_EQ(device_count("vulkan"), 0u);
    EXPECT_EQ(device_count("cpu"), 1u);
    EXPECT_EQ(device_count("cpu:serial"), 1u);
    for (const BackendRow &row : backend_rows()) {
        if (!row.takes_device) continue;
        SCOPED_TRACE(row.name);
        const size_t count = device_count(row.name);
        const std::string name = row.name;
        if (!row.status().available) {
            EXPECT_EQ(count, 0u);
            continue;
        }
        ASSERT_GE(count, 1u);
        EXPECT_EQ(device_count(name + ":0"), count); // a device spec counts its row's devices
        EXPECT_NO_THROW(get_backend(name + ":" + std::to_string(count - 1)));
        EXPECT_ANY_THROW(get_backend(name + ":" + std::to_string(count)));
    }
}

// rank_devices lists devices that device_count numbers, each once, and some for every available
// backend (the MPI ranks' round robin picks from it).
TEST(BackendTable, RankDevicesAreSelectableDevices) {
    EXPECT_TRUE(rank_devices("vulkan").empty());
    EXPECT_EQ(rank_devices("cpu"), (std::vector<size_t>{0}));
    for (const BackendRow &row : backend_rows()) {
        if (!row.takes_device) continue;
        SCOPED_TRACE(row.name);
        const std::vector<size_t> devices = rank_devices(row.name);
        if (!row.status().available) {
            EXPECT_TRUE(devices.empty());
            continue;
        }
        ASSERT_FALSE(devices.empty());
        EXPECT_TRUE(std::is_sorted(devices.begin(), devices.end()));
        EXPECT_EQ(std::adjacent_find(devices.begin(), devices.end()), devices.end());
        EXPECT_LT(devices.back(), device_count(row.name));
    }
}

TEST(BackendTable, UnknownBackendsHaveNoDialectNorTarget) {
    try {
        codegen::dialect_for_backend("vulkan");
        FAIL();
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("'vulkan'"), std::string::npos) << e.what();
    }
    try {
        primitives::primitive_target("vulkan");
        FAIL();
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("(available: cpu, opencl, cuda)"), std::string::npos)
            << e.what();
    }
}

} // namespace
} // namespace smelt
