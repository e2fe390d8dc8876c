// The writers never leave a torn or half-replaced file: a VTK frame appears whole or not at all
// (written to a temporary and renamed), an H5MD file that another program holds open is never
// replaced, and the atomic-file helpers replace whole files and leave no temporary behind.
#include "common/atomic_file.h"
#include "common/h5md_writer.h"
#include "common/vtk_writer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>

#if SMELT_APPS_HAVE_HDF5
#include <hdf5.h>
#endif
#if SMELT_APPS_HAVE_VTK
#include <vtkNew.h>
#include <vtkObject.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>
#endif

using namespace smelt::apps;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string &name) {
    auto dir =
        fs::temp_directory_path() / ("smelt_outfiles_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::string read_text(const fs::path &p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<std::string> names_in(const fs::path &dir) {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(dir))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

TEST(AtomicFile, ReplacesTheWholeFileAndLeavesNoTemporary) {
    const fs::path dir = fresh_dir("atomic");
    const std::string path = (dir / "a.txt").string();
    write_file_atomically(path, "first\n");
    write_file_atomically(path, "second, longer\n");
    EXPECT_EQ(read_text(path), "second, longer\n");
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"a.txt"});
    // A folder where the file should go: an error naming the file, the folder untouched.
    fs::create_directories(dir / "d.txt" / "inside");
    try {
        write_file_atomically((dir / "d.txt").string(), "x");
        ADD_FAILURE() << "replacing a folder with a file was accepted";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find((dir / "d.txt").string()), std::string::npos);
    }
    EXPECT_TRUE(fs::is_directory(dir / "d.txt" / "inside"));
    EXPECT_FALSE(fs::exists(dir / "d.txt.tmp"));
    fs::remove_all(dir);
}

TEST(AtomicFile, SeesALockThatAnotherOpenFileHolds) {
    const fs::path dir = fresh_dir("locked");
    const std::string path = (dir / "f").string();
    EXPECT_FALSE(file_is_locked(path)); // absent
    { std::ofstream(path) << "x"; }
    EXPECT_FALSE(file_is_locked(path));
    const int fd = ::open(path.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::flock(fd, LOCK_SH), 0); // as an HDF5 reader holds it
    EXPECT_TRUE(file_is_locked(path));
    ::close(fd);
    EXPECT_FALSE(file_is_locked(path));
    fs::remove_all(dir);
}

#if SMELT_APPS_HAVE_HDF5

H5mdOptions h5md_options() {
    H5mdOptions o;
    o.n = 3;
    o.dim = 2;
    o.box_edges = {4.0, 4.0};
    return o;
}

FrameData frame_at(int64_t step) {
    return {step, 0.5 * double(step), {Field::vector("position", {{0, 1, 2}, {3, 2, 1}})}};
}

// HDF5 locks the files it has open; a writer asked to create a file over one that another
// writer (here in the same process, as another run would) holds is refused, and the held file
// goes on being written and reads back whole.
TEST(H5md, ReplacingAFileThatAnotherWriterHoldsIsRefused) {
    if (const char *locking = std::getenv("HDF5_USE_FILE_LOCKING");
        locking && std::string(locking) == "FALSE")
        GTEST_SKIP() << "HDF5_USE_FILE_LOCKING=FALSE: HDF5 does not lock its files";
    const fs::path dir = fresh_dir("h5held");
    const std::string path = (dir / "run.h5").string();
    H5mdWriter first(path, h5md_options());
    first.write_frame(frame_at(0));
    try {
        H5mdWriter second(path, h5md_options());
        ADD_FAILURE() << "a held H5MD file was replaced";
    } catch (const std::runtime_error &e) {
        EXPECT_NE(std::string(e.what()).find(path + ": the file is open in another run"),
                  std::string::npos)
            << e.what();
    }
    first.write_frame(frame_at(10));
    first.close();
    EXPECT_EQ(names_in(dir), std::vector<std::string>{"run.h5"}); // no temporary left
    hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    ASSERT_GE(f, 0);
    hid_t d = H5Dopen2(f, "particles/all/position/step", H5P_DEFAULT);
    ASSERT_GE(d, 0);
    hid_t space = H5Dget_space(d);
    EXPECT_EQ(H5Sget_simple_extent_npoints(space), 2);
    H5Sclose(space);
    H5Dclose(d);
    H5Fclose(f);
    // Once closed it may be replaced: a new file, no frames.
    H5mdWriter third(path, h5md_options());
    EXPECT_EQ(third.frames(), 0);
    third.close();
    fs::remove_all(dir);
}

#endif

#if SMELT_APPS_HAVE_VTK

int points_in(const fs::path &vtp) {
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(vtp.c_str());
    reader->Update();
    return int(reader->GetOutput()->GetNumberOfPoints());
}

// Frames go through a temporary: after each one the folder holds only whole frames and the
// index; a frame whose write fails is not there at all (never a truncated .vtp).
TEST(Vtk, FramesAppearWholeOrNotAtAll) {
    const fs::path dir = fresh_dir("vtkatomic");
    VtkWriter w(dir.string(), "md");
    const std::vector<double> x{0.5, 1.5, 2.5}, y{1.0, 2.0, 3.0};
    const FrameData frame{0, 0.0, {Field::vector("position", {x, y})}};
    w.write_frame(frame);
    EXPECT_EQ(names_in(dir), (std::vector<std::string>{"md.pvd", "md_000000000.vtp"}));
    EXPECT_EQ(points_in(dir / "md_000000000.vtp"), 3);
    // The temporary of the next frame cannot be created (a folder has its name).
    fs::create_directories(dir / "md_000000010.vtp.tmp" / "blocked");
    FrameData next = frame;
    next.step = 10;
    vtkObject::GlobalWarningDisplayOff(); // VTK's own report of the failure
    EXPECT_THROW(w.write_frame(next), std::runtime_error);
    vtkObject::GlobalWarningDisplayOn();
    EXPECT_FALSE(fs::exists(dir / "md_000000010.vtp"));
    EXPECT_EQ(VtkWriter::pvd_entries(read_text(dir / "md.pvd")).size(), 1u);
    fs::remove_all(dir / "md_000000010.vtp.tmp");
    w.write_frame(next);
    EXPECT_EQ(names_in(dir),
              (std::vector<std::string>{"md.pvd", "md_000000000.vtp", "md_000000010.vtp"}));
    EXPECT_EQ(points_in(dir / "md_000000010.vtp"), 3);
    EXPECT_EQ(VtkWriter::pvd_entries(read_text(dir / "md.pvd")).size(), 2u);
    fs::remove_all(dir);
}

#endif

} // namespace
