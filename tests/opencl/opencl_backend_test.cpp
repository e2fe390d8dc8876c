// The OpenCL backend: device selection, error names, memory, hand-written kernels, build
// failures (log mapped to the .py by #line, kept source), the binary cache, the fp64 check,
// the registry and `smelt devices`.
#include "opencl_test_util.h"

#include "../runtime/runtime_test_util.h"

#include <gtest/gtest.h>

#ifdef SMELT_HAVE_OPENCL

#include "backends/opencl/device_select.h"
#include "support/process.h"

#include <cstring>
#include <functional>
#include <numeric>

namespace smelt {
namespace {

using opencl::DeviceSummary;
using opencl::OpenCLBackend;
using testing_util::ScopedEnv;
using testing_util::TempDir;

std::vector<DeviceSummary> fake_devices() {
    return {{0, 0, "Portable Computing Language", "pthread-haswell-AMD EPYC", false},
            {1, 0, "NVIDIA CUDA", "NVIDIA H100 80GB HBM3", true},
            {1, 1, "NVIDIA CUDA", "NVIDIA A100-SXM4-40GB", true}};
}

std::string usage_message(const std::function<void()> &f) {
    try {
        f();
    } catch (const UsageError &e) {
        return e.what();
    }
    return "(no UsageError)";
}

TEST(OpenCLSelection, SpecsPickTheDevice) {
    auto d = fake_devices();
    EXPECT_EQ(opencl::select_device(d, ""), 1u); // the first GPU
    EXPECT_EQ(opencl::select_device(d, "0"), 0u);
    EXPECT_EQ(opencl::select_device(d, "2"), 2u);
    EXPECT_EQ(opencl::select_device(d, "nvidia:1"), 2u);
    EXPECT_EQ(opencl::select_device(d, "NVIDIA"), 1u);
    EXPECT_EQ(opencl::select_device(d, "portable:0"), 0u);
    EXPECT_EQ(opencl::select_device(d, "portable:"), 0u);
    EXPECT_EQ(opencl::select_device(d, "1:a100"), 2u);
    EXPECT_EQ(opencl::select_device(d, "cuda:H100"), 1u);
    std::vector<DeviceSummary> cpu_only = {d[0]};
    EXPECT_EQ(opencl::select_device(cpu_only, ""), 0u); // no GPU: the first device
}

// The ranks of an MPI job share the GPUs round robin, never the CPU device listed before them
// (rank 0 on PoCL beside two GPUs was the round robin over every device); without a GPU they
// share every device (one PoCL device for all ranks).
TEST(OpenCLSelection, DefaultDevicesAreTheGpusElseAll) {
    auto d = fake_devices();
    EXPECT_EQ(opencl::default_devices(d), (std::vector<size_t>{1, 2}));
    EXPECT_EQ(opencl::default_devices({d[0]}), (std::vector<size_t>{0}));
    std::vector<DeviceSummary> cpus = {d[0], d[0]};
    cpus[1].device_index = 1;
    EXPECT_EQ(opencl::default_devices(cpus), (std::vector<size_t>{0, 1}));
    EXPECT_TRUE(opencl::default_devices({}).empty());
}

TEST(OpenCLSelection, NoMatchListsTheDevices) {
    auto d = fake_devices();
    for (const char *spec : {"7", "amd:0", "nvidia:5", "portable:gpu"}) {
        std::string msg = usage_message([&] { opencl::select_device(d, spec); });
        EXPECT_NE(msg.find(std::string("'") + spec + "'"), std::string::npos) << msg;
        EXPECT_NE(msg.find("0: Portable Computing Language / pthread-haswell-AMD EPYC"),
                  std::string::npos)
            << msg;
        EXPECT_NE(msg.find("2: NVIDIA CUDA / NVIDIA A100-SXM4-40GB [gpu]"), std::string::npos)
            << msg;
    }
    std::string none = usage_message([&] { opencl::select_device({}, ""); });
    EXPECT_NE(none.find("no OpenCL device found"), std::string::npos) << none;
}

TEST(OpenCLErrors, CallAndErrorNameInMessage) {
    EXPECT_STREQ(opencl::error_name(-30), "CL_INVALID_VALUE");
    EXPECT_STREQ(opencl::error_name(-11), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_STREQ(opencl::error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    EXPECT_STREQ(opencl::error_name(-9999), "unknown OpenCL error");
    try {
        opencl::check(-61, "clCreateBuffer");
        FAIL();
    } catch (const BackendError &e) {
        EXPECT_EQ(std::string(e.what()), "clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61)");
    }
    EXPECT_NO_THROW(opencl::check(CL_SUCCESS, "clFinish"));
}

TEST(OpenCLBackend, MemoryRoundTripCopyAndEmptyBuffers) {
    SMELT_OPENCL_OR_SKIP(cl);
    EXPECT_FALSE(cl->host_addressable());
    std::vector<int32_t> in(1000);
    std::iota(in.begin(), in.end(), -500);
    Buffer a = cl->allocate(in.size() * 4), b = cl->allocate(in.size() * 4);
    cl->write(a, 0, in.data(), in.size() * 4);
    std::vector<int32_t> zeros(in.size(), 0);
    cl->write(b, 0, zeros.data(), zeros.size() * 4);
    cl->copy(b, 40, a, 400, 800); // elements 100..299 of a → 10..209 of b
    std::vector<int32_t> out(in.size());
    cl->read(b, 0, out.data(), out.size() * 4);
    for (size_t i = 0; i < out.size(); ++i)
        EXPECT_EQ(out[i], i >= 10 && i < 210 ? in[i + 90] : 0) << i;
    int32_t tail[2];
    cl->read(a, 998 * 4, tail, 8);
    EXPECT_EQ(tail[0], 498);
    EXPECT_EQ(tail[1], 499);
    Buffer empty = cl->allocate(0);
    EXPECT_EQ(empty.handle, nullptr);
    cl->release(empty);
    cl->release(a);
    cl->release(b);
    EXPECT_EQ(a.handle, nullptr);
}

const char *kAddSource = R"(
__kernel void add_to(__global int *x, int c, long n) {
    long i = get_global_id(0);
    if (i < n) x[i] += c;
}
)";

TEST(OpenCLBackend, LaunchesAHandWrittenKernel) {
    SMELT_OPENCL_OR_SKIP(cl);
    auto module = cl->compile({kAddSource, {"add_to"}});
    void *fn = module->function("add_to");
    const int64_t n = 1000;
    std::vector<int32_t> host(n);
    std::iota(host.begin(), host.end(), 0);
    Buffer x = cl->allocate(n * 4);
    cl->write(x, 0, host.data(), n * 4);
    KernelArg args[] = {KernelArg::of(x), KernelArg::of(int32_t(7)), KernelArg::of(n)};
    cl->launch(fn, LaunchDims::linear(1024, 64), args); // rounded up; the kernel bound-checks
    cl->launch(fn, LaunchDims::linear(n), args);        // the driver picks the work-group size
    cl->read(x, 0, host.data(), n * 4);
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(host[i], i + 14) << i;
    cl->release(x);
}

// OpenCL keeps a kernel's arguments between launches: every change (buffer, scalar) must reach
// the kernel, and so must a buffer allocated after another was released (it may get the
// released one's handle), and a kernel compiled anew.
TEST(OpenCLBackend, ArgumentsChangedBetweenLaunchesAreSeen) {
    SMELT_OPENCL_OR_SKIP(cl);
    auto module = cl->compile({kAddSource, {"add_to"}});
    void *fn = module->function("add_to");
    const int64_t n = 16;
    auto contents = [&](const Buffer &b) {
        std::vector<int32_t> h(n);
        cl->read(b, 0, h.data(), n * 4);
        return h;
    };
    const std::vector<int32_t> zero(n, 0);
    Buffer a = cl->allocate(n * 4), b = cl->allocate(n * 4);
    cl->write(a, 0, zero.data(), n * 4);
    cl->write(b, 0, zero.data(), n * 4);
    for (int k = 1; k <= 3; ++k) { // a gets 1 + 2 + 3, b gets 10 + 20 + 30
        KernelArg to_a[] = {KernelArg::of(a), KernelArg::of(int32_t(k)), KernelArg::of(n)};
        KernelArg to_b[] = {KernelArg::of(b), KernelArg::of(int32_t(10 * k)), KernelArg::of(n)};
        cl->launch(fn, LaunchDims::linear(n), to_a);
        cl->launch(fn, LaunchDims::linear(n), to_b);
    }
    // Half the items: only the length changes.
    KernelArg half[] = {KernelArg::of(a), KernelArg::of(int32_t(100)), KernelArg::of(n / 2)};
    cl->launch(fn, LaunchDims::linear(n), half);
    std::vector<int32_t> want_a(n, 6), want_b(n, 60);
    for (int64_t i = 0; i < n / 2; ++i)
        want_a[size_t(i)] += 100;
    EXPECT_EQ(contents(a), want_a);
    EXPECT_EQ(contents(b), want_b);
    for (int round = 0; round < 20; ++round) {
        cl->release(b);
        b = cl->allocate(n * 4);
        cl->write(b, 0, zero.data(), n * 4);
        KernelArg to_b[] = {KernelArg::of(b), KernelArg::of(int32_t(5)), KernelArg::of(n)};
        cl->launch(fn, LaunchDims::linear(n), to_b);
        ASSERT_EQ(contents(b), std::vector<int32_t>(n, 5)) << "round " << round;
    }
    module.reset(); // its kernels released; the next compile makes new ones
    auto again = cl->compile({kAddSource, {"add_to"}});
    KernelArg to_a[] = {KernelArg::of(a), KernelArg::of(int32_t(1)), KernelArg::of(n)};
    cl->launch(again->function("add_to"), LaunchDims::linear(n), to_a);
    for (int32_t &v : want_a)
        ++v;
    EXPECT_EQ(contents(a), want_a);
    cl->release(a);
    cl->release(b);
}

// Reads land in pinned memory (small blocking reads and HostStage): each sees exactly the
// kernels queued before it, two stages in flight keep their own values, and a stage's memory
// is reused by its next start. Reads above the pinned size go straight to the caller's memory.
TEST(OpenCLBackend, ReadsSeeTheKernelsQueuedBeforeThem) {
    SMELT_OPENCL_OR_SKIP(cl);
    auto module = cl->compile({kAddSource, {"add_to"}});
    void *fn = module->function("add_to");
    const int64_t n = 2048; // 8 KiB: above the 4 KiB of the pinned small reads
    std::vector<int32_t> host(n);
    std::iota(host.begin(), host.end(), 0);
    Buffer x = cl->allocate(n * 4);
    cl->write(x, 0, host.data(), n * 4);
    auto add = [&](int32_t c) {
        KernelArg args[] = {KernelArg::of(x), KernelArg::of(c), KernelArg::of(n)};
        cl->launch(fn, LaunchDims::linear(n), args);
    };
    auto first = cl->host_stage(8), second = cl->host_stage(8);
    add(1);
    first->start(x, 4 * 10, 8); // x[10], x[11] after +1
    add(100);
    second->start(x, 4 * 10, 8); // after +101
    add(1000);
    int32_t small[2] = {0, 0};
    cl->read(x, 4 * 10, small, 8); // after +1101
    std::vector<int32_t> all(n);
    cl->read(x, 0, all.data(), n * 4);
    int32_t a[2], b[2];
    std::memcpy(b, second->wait(), 8);
    std::memcpy(a, first->wait(), 8);
    EXPECT_EQ(a[0], 11);
    EXPECT_EQ(a[1], 12);
    EXPECT_EQ(b[0], 111);
    EXPECT_EQ(b[1], 112);
    EXPECT_EQ(small[0], 1111);
    EXPECT_EQ(small[1], 1112);
    for (int64_t i = 0; i < n; ++i)
        ASSERT_EQ(all[size_t(i)], int32_t(i) + 1101) << i;
    add(-1101); // the stage's memory again, with the first value back
    first->start(x, 0, 8);
    std::memcpy(a, first->wait(), 8);
    EXPECT_EQ(a[0], 0);
    EXPECT_EQ(a[1], 1);
    cl->release(x);
}

TEST(OpenCLBackend, LaunchMistakesAreClear) {
    SMELT_OPENCL_OR_SKIP(cl);
    auto module = cl->compile({kAddSource, {"add_to"}});
    void *fn = module->function("add_to");
    Buffer x = cl->allocate(64 * 4);
    KernelArg args[] = {KernelArg::of(x), KernelArg::of(int32_t(1)), KernelArg::of(int64_t(64))};
    std::string msg = usage_message([&] { cl->launch(fn, LaunchDims::linear(100, 64), args); });
    EXPECT_NE(msg.find("not a multiple of the work-group size 64"), std::string::npos) << msg;
    KernelArg wrong[] = {KernelArg::of(x), KernelArg::of(int64_t(1)), KernelArg::of(int64_t(64))};
    try {
        cl->launch(fn, LaunchDims::linear(64), wrong);
        FAIL();
    } catch (const BackendError &e) {
        EXPECT_NE(std::string(e.what()).find("clSetKernelArg failed: CL_INVALID_ARG_SIZE"),
                  std::string::npos)
            << e.what();
        EXPECT_NE(std::string(e.what()).find("argument 1 of kernel 'add_to'"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(module->function("no_such_kernel"), BackendError);
    EXPECT_FALSE(module->has_function("no_such_kernel"));
    cl->release(x);
}

TEST(OpenCLBackend, BuildFailureShowsLogAtThePyLineAndKeepsTheSource) {
    SMELT_OPENCL_OR_SKIP(shared);
    TempDir dir;
    OpenCLBackend cl({}, DiskCache(dir.path()));
    // What the code generator writes: #line directives naming the user's file.
    std::string source = "#line 12 \"my_kernels.py\"\n"
                         "__kernel void broken(__global int *x) {\n"
                         "#line 14 \"my_kernels.py\"\n"
                         "    x[0] = undefined_name;\n"
                         "}\n";
    try {
        cl.compile({source, {"broken"}, "raw_kernel", "broken(x: gintp)"});
        FAIL() << "the build should fail";
    } catch (const BackendError &e) {
        std::string what = e.what();
        EXPECT_NE(e.log().find("my_kernels.py:14:"), std::string::npos) << e.log();
        EXPECT_NE(e.log().find("undefined_name"), std::string::npos) << e.log();
        EXPECT_NE(what.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << what;
        ASSERT_FALSE(e.kept_source().empty());
        EXPECT_NE(what.find(e.kept_source()), std::string::npos) << what;
        EXPECT_EQ(testing_util::slurp(e.kept_source()), source);
        EXPECT_EQ(std::filesystem::path(e.kept_source()).extension(), ".cl");
    }
}

TEST(OpenCLBackend, ProgramBinariesAreCachedOnDisk) {
    SMELT_OPENCL_OR_SKIP(shared);
    TempDir dir;
    ModuleSource src{std::string(kAddSource) + "// cache test\n", {"add_to"}, "raw_kernel", "t"};
    {
        OpenCLBackend first({}, DiskCache(dir.path()));
        first.compile(src);
        first.compile(src);
        EXPECT_EQ(first.loader().stats().builds, 1u);
        EXPECT_EQ(first.loader().stats().memory_hits, 1u);
    }
    OpenCLBackend second({}, DiskCache(dir.path()));
    auto module = second.compile(src); // a new process would do the same: load the binary
    EXPECT_EQ(second.loader().stats().builds, 0u);
    EXPECT_EQ(second.loader().stats().disk_hits, 1u);
    Buffer x = second.allocate(16 * 4);
    std::vector<int32_t> host(16, 1);
    second.write(x, 0, host.data(), 64);
    KernelArg args[] = {KernelArg::of(x), KernelArg::of(int32_t(2)), KernelArg::of(int64_t(16))};
    second.launch(module->function("add_to"), LaunchDims::linear(16), args);
    second.read(x, 0, host.data(), 64);
    EXPECT_EQ(host, std::vector<int32_t>(16, 3));
    second.release(x);

    // The entry's key names the device, the driver and the build options; options change it.
    CacheKey key = second.loader().key_for(src);
    std::string parts;
    for (const auto &[name, value] : key.describe())
        parts += name + "=" + value + "\n";
    EXPECT_NE(parts.find(second.device().summary.device_name), std::string::npos) << parts;
    EXPECT_NE(parts.find(second.device().driver_version), std::string::npos) << parts;
    EXPECT_NE(parts.find("-cl-std=CL1.2"), std::string::npos) << parts;
    ModuleSource with_flag = src;
    with_flag.extra_flags = {"-cl-mad-enable"};
    EXPECT_NE(second.loader().key_for(with_flag).hex(), key.hex());
}

TEST(OpenCLBackend, DoubleOnADeviceWithoutFp64NamesThePrecisionSwitch) {
    SMELT_OPENCL_OR_SKIP(shared);
    TempDir dir;
    OpenCLBackend no_fp64({.pretend_no_fp64 = true}, DiskCache(dir.path()));
    EXPECT_FALSE(no_fp64.has_fp64());
    std::string source = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                         "__kernel void twice(__global double *x) { x[0] *= 2.0; }\n";
    std::string msg = usage_message([&] { no_fp64.compile({source, {"twice"}, "raw_kernel"}); });
    EXPECT_NE(msg.find("uses double precision"), std::string::npos) << msg;
    EXPECT_NE(msg.find("Precision::Single"), std::string::npos) << msg;
    EXPECT_NE(msg.find("--precision single"), std::string::npos) << msg;
    EXPECT_EQ(no_fp64.loader().stats().builds, 0u);
}

TEST(OpenCLRegistry, ListedSelectedAndShownBySmeltDevices) {
    SMELT_OPENCL_OR_SKIP(cl);
    bool listed = false;
    for (const auto &b : list_backends())
        listed |= b.name == "opencl" && b.available;
    EXPECT_TRUE(listed);
    EXPECT_EQ(cl->name(), "opencl");
    EXPECT_EQ(&get_backend("opencl"), static_cast<Backend *>(cl));
    auto devices = cl->devices();
    ASSERT_FALSE(devices.empty());
    size_t selected = 0;
    for (const auto &d : devices)
        selected += d.detail.find("(selected)") != std::string::npos;
    EXPECT_EQ(selected, 1u);

    // The same device by number, through "opencl:N".
    std::string n = std::to_string(cl->device().flat_index);
    auto &by_number = dynamic_cast<OpenCLBackend &>(get_backend("opencl:" + n));
    EXPECT_EQ(by_number.device_id(), cl->device_id());

    {
        ScopedEnv env("SMELT_OPENCL_DEVICE", "no-such-platform:0");
        std::string msg = usage_message([] { OpenCLBackend b; });
        EXPECT_NE(msg.find("no platform matches 'no-such-platform'"), std::string::npos) << msg;
        EXPECT_NE(msg.find(cl->device().summary.device_name), std::string::npos) << msg;
    }
#ifdef SMELT_CLI
    ProcessResult out = run_process({SMELT_CLI, "devices"});
    EXPECT_EQ(out.exit_status, 0) << out.output;
    EXPECT_NE(out.output.find("opencl      available"), std::string::npos) << out.output;
    EXPECT_NE(out.output.find(cl->device().summary.device_name), std::string::npos) << out.output;
#endif
}

} // namespace
} // namespace smelt

#else

TEST(OpenCLBackend, Skipped) {
    GTEST_SKIP() << "no OpenCL device: smelt was built without OpenCL";
}

#endif
