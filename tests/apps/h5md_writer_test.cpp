// H5MD output: written by H5mdWriter, read back with the HDF5 C API (shapes, values, attributes,
// step/time) and with h5py (an independent reader checking the H5MD layout).
#include "common/h5md_writer.h"
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

#if SMELT_APPS_HAVE_HDF5
#include <hdf5.h>
#endif

using namespace smelt::apps;
namespace fs = std::filesystem;

namespace {

constexpr int64_t kN = 5;

fs::path temp_file(const std::string &name) {
    return fs::temp_directory_path() / ("smelt_" + std::to_string(getpid()) + "_" + name);
}

H5mdOptions options() {
    H5mdOptions o;
    o.n = kN;
    o.dim = 2;
    o.box_edges = {10.0, 8.0};
    o.periodic = true;
    o.creator = "smelt md2d";
    o.creator_version = "9.9";
    o.config_yaml = "system:\n  n: 5 # a comment\n";
    return o;
}

// Frame f: x = i + 0.1 f, y = -i, vx = 100 f + i, vy = 0.5 i.
struct TestFrame {
    std::vector<double> x, y, vx, vy;
    explicit TestFrame(int f) {
        for (int i = 0; i < kN; ++i) {
            x.push_back(i + 0.1 * f);
            y.push_back(-i);
            vx.push_back(100.0 * f + i);
            vy.push_back(0.5 * i);
        }
    }
    FrameData frame(int64_t step, double time) const {
        return {
            step, time, {Field::vector("position", {x, y}), Field::vector("velocity", {vx, vy})}};
    }
};

// md2d's observables: pe, ke, etotal, temperature, pressure.
std::vector<ObservableColumn> columns() {
    return {{"pe", "potential_energy"},
            {"ke", "kinetic_energy"},
            {"etotal", "total_energy"},
            {"temperature", "temperature"},
            {"pressure", "pressure"}};
}

struct Sample {
    int64_t step;
    double time, pe, ke, etotal, temperature, pressure;
    ObservableSample observables() const {
        return {step, time, {pe, ke, etotal, temperature, pressure}};
    }
};

Sample sample(int k) {
    return {5 * k, 0.025 * k, -1.0 - k, 0.5 * k, -1.0 - 0.5 * k, 0.25 * k, 0.125 * k};
}

void write_file(const fs::path &path, int frames, int samples) {
    H5mdWriter w(path.string(), options());
    for (int f = 0; f < frames; ++f)
        w.write_frame(TestFrame(f).frame(10 * f, 0.05 * f));
    for (int k = 0; k < samples; ++k)
        w.write_observables(columns(), sample(k).observables());
    EXPECT_EQ(w.frames(), frames);
}

#if SMELT_APPS_HAVE_HDF5

std::vector<hsize_t> dims_of(hid_t dset) {
    hid_t space = H5Dget_space(dset);
    int rank = H5Sget_simple_extent_ndims(space);
    std::vector<hsize_t> d(static_cast<size_t>(rank));
    H5Sget_simple_extent_dims(space, d.data(), nullptr);
    H5Sclose(space);
    return d;
}

template <class T>
std::vector<T> read_all(hid_t file, const std::string &path, hid_t mem_type,
                        std::vector<hsize_t> *dims = nullptr) {
    hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    EXPECT_GE(d, 0) << path;
    if (d < 0) return {};
    auto shape = dims_of(d);
    size_t count = 1;
    for (hsize_t s : shape)
        count *= s;
    std::vector<T> out(count);
    EXPECT_GE(H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()), 0);
    H5Dclose(d);
    if (dims) *dims = shape;
    return out;
}

std::vector<std::string> read_string_attr(hid_t file, const std::string &obj,
                                          const std::string &name) {
    hid_t a = H5Aopen_by_name(file, obj.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(a, 0) << obj << "@" << name;
    if (a < 0) return {};
    hid_t space = H5Aget_space(a);
    auto n = static_cast<size_t>(H5Sget_simple_extent_npoints(space));
    std::vector<std::string> out;
    hid_t file_type = H5Aget_type(a);
    const bool fixed = H5Tis_variable_str(file_type) == 0;
    const size_t width = H5Tget_size(file_type);
    H5Tclose(file_type);
    if (fixed) { // H5MD's own attributes are fixed-length strings, NUL-padded
        hid_t t = H5Tcopy(H5T_C_S1);
        H5Tset_size(t, width);
        H5Tset_strpad(t, H5T_STR_NULLPAD); // NUL-terminated would drop a full string's last char
        std::string buf(n * width, '\0');
        EXPECT_GE(H5Aread(a, t, buf.data()), 0);
        for (size_t k = 0; k < n; ++k) {
            std::string v = buf.substr(k * width, width);
            out.push_back(v.substr(0, v.find('\0')));
        }
        H5Tclose(t);
        H5Sclose(space);
        H5Aclose(a);
        return out;
    }
    hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, H5T_VARIABLE);
    H5Tset_cset(type, H5T_CSET_UTF8);
    std::vector<char *> raw(n);
    EXPECT_GE(H5Aread(a, type, raw.data()), 0);
    for (char *s : raw) {
        out.emplace_back(s ? s : "");
        H5free_memory(s);
    }
    H5Sclose(space);
    H5Tclose(type);
    H5Aclose(a);
    return out;
}

std::vector<int> read_int_attr(hid_t file, const std::string &obj, const std::string &name) {
    hid_t a = H5Aopen_by_name(file, obj.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
    EXPECT_GE(a, 0) << obj << "@" << name;
    if (a < 0) return {};
    hid_t space = H5Aget_space(a);
    std::vector<int> out(static_cast<size_t>(H5Sget_simple_extent_npoints(space)));
    EXPECT_GE(H5Aread(a, H5T_NATIVE_INT, out.data()), 0);
    H5Sclose(space);
    H5Aclose(a);
    return out;
}

TEST(H5md, ReadBackWithTheHdf5Api) {
    fs::path path = temp_file("readback.h5");
    write_file(path, 3, 4);
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(read_int_attr(f, "h5md", "version"), (std::vector<int>{1, 1}));
    EXPECT_EQ(read_string_attr(f, "h5md/author", "name"), (std::vector<std::string>{"smelt"}));
    EXPECT_EQ(read_string_attr(f, "h5md/creator", "name"),
              (std::vector<std::string>{"smelt md2d"}));
    EXPECT_EQ(read_string_attr(f, "h5md/creator", "version"), (std::vector<std::string>{"9.9"}));
    EXPECT_EQ(read_int_attr(f, "particles/all/box", "dimension"), (std::vector<int>{2}));
    EXPECT_EQ(read_string_attr(f, "particles/all/box", "boundary"),
              (std::vector<std::string>{"periodic", "periodic"}));
    // The box of every frame, as the matrix of its edge vectors, on position's clock.
    std::vector<hsize_t> box_dims;
    EXPECT_EQ(read_all<double>(f, "particles/all/box/edges/value", H5T_NATIVE_DOUBLE, &box_dims),
              (std::vector<double>{10, 0, 0, 8, 10, 0, 0, 8, 10, 0, 0, 8}));
    EXPECT_EQ(box_dims, (std::vector<hsize_t>{3, 2, 2}));
    EXPECT_EQ(read_all<int64_t>(f, "particles/all/box/edges/step", H5T_NATIVE_INT64),
              (std::vector<int64_t>{0, 10, 20}));
    EXPECT_EQ(read_all<int64_t>(f, "particles/all/id", H5T_NATIVE_INT64),
              (std::vector<int64_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(read_string_attr(f, "h5md/modules/units", "system"),
              (std::vector<std::string>{"LJ"}));
    EXPECT_EQ(read_string_attr(f, "observables/pressure/time", "unit"),
              (std::vector<std::string>{"tau"}));
    EXPECT_EQ(read_string_attr(f, "particles/all/box/edges/value", "unit"),
              (std::vector<std::string>{"sigma"}));
    EXPECT_EQ(read_string_attr(f, "parameters", "config_yaml"),
              (std::vector<std::string>{options().config_yaml}));

    std::vector<hsize_t> dims;
    auto pos = read_all<double>(f, "particles/all/position/value", H5T_NATIVE_DOUBLE, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{3, kN, 2}));
    auto vel = read_all<double>(f, "particles/all/velocity/value", H5T_NATIVE_DOUBLE, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{3, kN, 2}));
    for (int fr = 0; fr < 3; ++fr) {
        TestFrame want(fr);
        for (int i = 0; i < kN; ++i) {
            size_t k = (size_t(fr) * kN + size_t(i)) * 2;
            EXPECT_EQ(pos[k], want.x[size_t(i)]);
            EXPECT_EQ(pos[k + 1], want.y[size_t(i)]);
            EXPECT_EQ(vel[k], want.vx[size_t(i)]);
            EXPECT_EQ(vel[k + 1], want.vy[size_t(i)]);
        }
    }
    EXPECT_EQ(read_all<int64_t>(f, "particles/all/position/step", H5T_NATIVE_INT64),
              (std::vector<int64_t>{0, 10, 20}));
    EXPECT_EQ(read_all<double>(f, "particles/all/velocity/time", H5T_NATIVE_DOUBLE),
              (std::vector<double>{0.0, 0.05, 0.1}));

    auto etot = read_all<double>(f, "observables/total_energy/value", H5T_NATIVE_DOUBLE, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{4}));
    for (int k = 0; k < 4; ++k)
        EXPECT_EQ(etot[size_t(k)], sample(k).etotal);
    EXPECT_EQ(read_all<int64_t>(f, "observables/pressure/step", H5T_NATIVE_INT64),
              (std::vector<int64_t>{0, 5, 10, 15}));
    auto temp = read_all<double>(f, "observables/temperature/value", H5T_NATIVE_DOUBLE);
    EXPECT_EQ(temp, (std::vector<double>{0.0, 0.25, 0.5, 0.75}));
    H5Fclose(f);
    fs::remove(path);
}

TEST(H5md, WallBoxesHaveNoBoundary) {
    fs::path path = temp_file("walls.h5");
    H5mdOptions o = options();
    o.periodic = false;
    {
        H5mdWriter w(path.string(), o);
        FrameData only_position = TestFrame(0).frame(0, 0.0);
        only_position.fields.pop_back();
        w.write_frame(only_position);
    }
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(read_string_attr(f, "particles/all/box", "boundary"),
              (std::vector<std::string>{"none", "none"}));
    EXPECT_LE(H5Lexists(f, "particles/all/velocity", H5P_DEFAULT), 0);
    H5Fclose(f);
    fs::remove(path);
}

// A box periodic along some axes only (vortex: periodic in x) says so axis by axis.
TEST(H5md, PerAxisBoundary) {
    fs::path path = temp_file("per_axis.h5");
    H5mdOptions o = options();
    o.periodic_axes = {true, false};
    {
        H5mdWriter w(path.string(), o);
        w.write_frame(TestFrame(0).frame(0, 0.0));
    }
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    EXPECT_EQ(read_string_attr(f, "particles/all/box", "boundary"),
              (std::vector<std::string>{"periodic", "none"}));
    H5Fclose(f);
    fs::remove(path);
    o.periodic_axes = {true};
    EXPECT_THROW(H5mdWriter(path.string(), o), std::invalid_argument);
}

TEST(H5md, AnInterruptedRunLeavesAReadableFile) {
    fs::path path = temp_file("killed.h5");
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) { // child: two frames, then dies without closing anything
        H5mdWriter *w = new H5mdWriter(path.string(), options());
        w->write_frame(TestFrame(0).frame(0, 0.0));
        w->write_frame(TestFrame(1).frame(10, 0.05));
        w->write_observables(columns(), sample(0).observables());
        _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0) << "the file of a killed run cannot be opened";
    std::vector<hsize_t> dims;
    auto pos = read_all<double>(f, "particles/all/position/value", H5T_NATIVE_DOUBLE, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{2, kN, 2}));
    EXPECT_EQ(pos[size_t(kN) * 2], TestFrame(1).x[0]);
    EXPECT_EQ(read_all<double>(f, "observables/potential_energy/value", H5T_NATIVE_DOUBLE),
              (std::vector<double>{sample(0).pe}));
    H5Fclose(f);
    fs::remove(path);
}

TEST(H5md, WrongArrayLengthsAreRejected) {
    fs::path path = temp_file("bad.h5");
    H5mdWriter w(path.string(), options());
    std::vector<double> short_x(kN - 1, 0.0), ok(kN, 0.0);
    EXPECT_THROW(w.write_frame({0, 0.0, {Field::vector("position", {short_x, ok})}}),
                 std::invalid_argument);
    // A frame needs a position, spatial with dim components.
    EXPECT_THROW(w.write_frame({0, 0.0, {Field::vector("velocity", {ok, ok})}}),
                 std::invalid_argument);
    EXPECT_THROW(w.write_frame({0, 0.0, {Field::reals("position", {ok, ok})}}),
                 std::invalid_argument);
    EXPECT_THROW(w.write_frame({0, 0.0, {Field::vector("position", {ok, ok, ok})}}),
                 std::invalid_argument);
    EXPECT_THROW(w.write_observables(columns(), {0, 0.0, {1.0}}), std::invalid_argument);
    w.close();
    fs::remove(path);
}

// A restart at step 20: frames and observables at steps >= 20 are dropped, new ones follow the
// rest; integer fields keep their type.
TEST(H5md, ResumeDropsEntriesFromTheRestartStepAndAppends) {
    fs::path path = temp_file("resume.h5");
    auto species = [](int f) {
        std::vector<int64_t> s;
        for (int i = 0; i < kN; ++i)
            s.push_back(100 * f + i);
        return s;
    };
    auto frame = [&](int f, int64_t step) {
        FrameData d = TestFrame(f).frame(step, 0.5 * double(step));
        d.fields.push_back(Field::integers("species", {species(f)}));
        return d;
    };
    {
        H5mdWriter w(path.string(), options());
        for (int f = 0; f < 4; ++f)
            w.write_frame(frame(f, 10 * f));
        for (int k = 0; k <= 6; ++k)
            w.write_observables(columns(), sample(k).observables());
    }
    {
        H5mdWriter w(path.string(), options(), 20);
        EXPECT_EQ(w.frames(), 2);
        w.write_frame(frame(7, 20));
        w.write_observables(columns(), {20, 10.0, {-7, -8, -9, -10, -11}});
        w.write_observables(columns(), {25, 12.5, {-1, -2, -3, -4, -5}});
        EXPECT_EQ(w.frames(), 3);
    }
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> dims;
    EXPECT_EQ(read_all<int64_t>(f, "particles/all/position/step", H5T_NATIVE_INT64),
              (std::vector<int64_t>{0, 10, 20}));
    EXPECT_EQ(read_all<double>(f, "particles/all/velocity/time", H5T_NATIVE_DOUBLE),
              (std::vector<double>{0.0, 5.0, 10.0}));
    auto pos = read_all<double>(f, "particles/all/position/value", H5T_NATIVE_DOUBLE, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{3, kN, 2}));
    for (int i = 0; i < kN; ++i) {
        EXPECT_EQ(pos[size_t(2 * kN + i) * 2], TestFrame(7).x[size_t(i)]);
        EXPECT_EQ(pos[size_t(kN + i) * 2], TestFrame(1).x[size_t(i)]);
    }
    auto sp = read_all<int64_t>(f, "particles/all/species/value", H5T_NATIVE_INT64, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{3, kN}));
    EXPECT_EQ(sp[size_t(2 * kN + 3)], 703);
    hid_t d = H5Dopen2(f, "particles/all/species/value", H5P_DEFAULT);
    hid_t t = H5Dget_type(d);
    EXPECT_EQ(H5Tget_class(t), H5T_INTEGER);
    H5Tclose(t);
    H5Dclose(d);
    EXPECT_EQ(read_all<int64_t>(f, "observables/total_energy/step", H5T_NATIVE_INT64),
              (std::vector<int64_t>{0, 5, 10, 15, 20, 25}));
    EXPECT_EQ(read_all<double>(f, "observables/pressure/value", H5T_NATIVE_DOUBLE),
              (std::vector<double>{0.0, 0.125, 0.25, 0.375, -11, -5}));
    H5Fclose(f);

    // Another particle count, dimension or box is refused.
    H5mdOptions other = options();
    other.n = kN + 1;
    EXPECT_THROW(H5mdWriter(path.string(), other, 10), std::runtime_error);
    other = options();
    other.box_edges = {10.0, 9.0};
    EXPECT_THROW(H5mdWriter(path.string(), other, 10), std::runtime_error);
    other = options();
    other.dim = 3;
    other.box_edges = {10.0, 8.0, 1.0};
    EXPECT_THROW(H5mdWriter(path.string(), other, 10), std::runtime_error);
    fs::remove(path);
}

// 3D: positions [frames, N, 3]; a one-component integer field is [frames, N].
TEST(H5md, ThreeDimensionsAndIntegerFields) {
    fs::path path = temp_file("3d.h5");
    H5mdOptions o = options();
    o.dim = 3;
    o.box_edges = {4.0, 5.0, 6.0};
    {
        H5mdWriter w(path.string(), o);
        TestFrame t(2);
        std::vector<double> z(kN, 0.25);
        std::vector<int64_t> ix(kN, 1), iy(kN, -2), iz(kN, 3), type{0, 1, 0, 1, 1};
        w.write_frame(
            {4,
             0.5,
             {Field::vector("position", {t.x, t.y, z}), Field::integers("image", {ix, iy, iz}),
              Field::integers("species", {type})}});
    }
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    std::vector<hsize_t> dims;
    auto pos = read_all<double>(f, "particles/all/position/value", H5T_NATIVE_DOUBLE, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{1, kN, 3}));
    EXPECT_EQ(pos[3 * 4 + 2], 0.25);
    EXPECT_EQ(pos[3 * 4 + 0], TestFrame(2).x[4]);
    auto image = read_all<int64_t>(f, "particles/all/image/value", H5T_NATIVE_INT64, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{1, kN, 3}));
    EXPECT_EQ((std::vector<int64_t>(image.begin(), image.begin() + 3)),
              (std::vector<int64_t>{1, -2, 3}));
    auto type = read_all<int64_t>(f, "particles/all/species/value", H5T_NATIVE_INT64, &dims);
    EXPECT_EQ(dims, (std::vector<hsize_t>{1, kN}));
    EXPECT_EQ(type, (std::vector<int64_t>{0, 1, 0, 1, 1}));
    EXPECT_EQ(read_int_attr(f, "particles/all/box", "dimension"), (std::vector<int>{3}));
    EXPECT_EQ(read_string_attr(f, "particles/all/box", "boundary").size(), 3u);
    H5Fclose(f);
    fs::remove(path);
}

TEST(H5md, H5pyReadsItAsH5md) {
    fs::path path = temp_file("h5py.h5");
    write_file(path, 3, 4);
    auto r = test_util::run_process(
        smelt::testing_util::test_python() + " " +
        test_util::shell_quote(std::string(SMELT_TEST_DATA_DIR) + "/apps/h5md_check.py") + " " +
        test_util::shell_quote(path.string()) + " --n 5 --dim 2 --frames 3 --observables 4");
    fs::remove(path);
    if (r.status == 77) GTEST_SKIP() << "h5py is not installed: " << r.output;
    EXPECT_EQ(r.status, 0) << r.output;
}

#else

TEST(H5md, WithoutHdf5TheWriterSaysSo) {
    try {
        H5mdWriter w(temp_file("none.h5").string(), options());
        FAIL();
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find("without HDF5"), std::string::npos);
    }
}

#endif

} // namespace
