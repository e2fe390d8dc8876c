// An md3d run's files opened by the tools MD users use, each an independent reader: h5py against
// the H5MD specification, MDAnalysis, an OVITO-style parse of the VTK files, the XDMF sidecar
// against the datasets it names, the gsd package on
// `smelt convert`'s GSD, LAMMPS on its data file (energies at `run 0` equal md3d's). One run of
// the md3d binary (a two-type mixture, forces and VTK on) serves every test; a reader that is
// not installed skips its test with the reason.
#include "test_process.h"
#include "test_python.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using smelt::apps::test_util::run_process;
using smelt::apps::test_util::shell_quote;

#if defined(SMELT_MD3D) && SMELT_APPS_HAVE_HDF5 && SMELT_APPS_HAVE_VTK

class Md3dFilesForReaders : public ::testing::Test {
protected:
    static fs::path dir() {
        return fs::temp_directory_path() / ("smelt_readers_" + std::to_string(getpid()));
    }
    static std::string h5() { return (dir() / "md3d_tiny.h5").string(); }

    // configs/ci/md3d_tiny.yaml (500 atoms, 50 steps, frames every 10, samples every 5) as a
    // 400/100 mixture of Kob-Andersen A and B with masses 1 and 2. The mixture is in the file
    // (not --set): the converter reads type names and masses from the config text the H5MD file
    // stores, which does not apply command-line overrides.
    static void SetUpTestSuite() {
        fs::remove_all(dir());
        fs::create_directories(dir());
        const fs::path config = dir() / "md3d_tiny.yaml";
        std::ofstream(config) << "system:\n"
                                 "  lattice: fcc\n"
                                 "  cells: [5, 5, 5]\n"
                                 "  density: 0.8\n"
                                 "  types: [A, B]\n"
                                 "  counts: [400, 100]\n"
                                 "  masses: [1.0, 2.0]\n"
                                 "  temperature: 1.0\n"
                                 "  seed: 7\n"
                                 "potential:\n"
                                 "  shift: true\n"
                                 "  pairs:\n"
                                 "    - {types: [A, A], epsilon: 1.0, sigma: 1.0, r_cut: 2.5}\n"
                                 "    - {types: [A, B], epsilon: 1.5, sigma: 0.8, r_cut: 2.0}\n"
                                 "    - {types: [B, B], epsilon: 0.5, sigma: 0.88, r_cut: 2.2}\n"
                                 "integrator: {kind: nve, dt: 0.005, steps: 50}\n"
                                 "neighbor: {mode: binned, skin: 0.3}\n"
                                 "output: {prefix: md3d_tiny, frame_interval: 10, "
                                 "thermo_interval: 5, progress: false}\n";
        std::string cmd = shell_quote(SMELT_MD3D) + " run " + shell_quote(config.string()) +
                          " --output " + shell_quote(dir().string());
        for (const char *set : {"output.vtk=true", "output.xdmf=true", "output.force=true"})
            cmd += " --set " + shell_quote(set);
        run_ = run_process(cmd);
    }
    static void TearDownTestSuite() { fs::remove_all(dir()); }

    void SetUp() override { ASSERT_EQ(run_.status, 0) << run_.output; }

    // A check script of tests/apps with its arguments; exit 77 = its reader is not installed.
    static void check(const std::string &script, const std::string &args) {
        auto r = run_process(smelt::testing_util::test_python() + " " +
                             shell_quote(std::string(SMELT_TEST_DATA_DIR) + "/apps/" + script) +
                             " " + args);
        if (r.status == 77) GTEST_SKIP() << r.output;
        EXPECT_EQ(r.status, 0) << r.output;
    }

    static smelt::apps::test_util::ProcessResult run_;
};

smelt::apps::test_util::ProcessResult Md3dFilesForReaders::run_;

TEST_F(Md3dFilesForReaders, H5mdFollowsTheSpecification) {
    check("h5md_check.py", shell_quote(h5()) + " --n 500 --dim 3 --frames 6 --observables 11");
}

TEST_F(Md3dFilesForReaders, MDAnalysisReadsPositionsVelocitiesBoxAndTime) {
    check("mdanalysis_check.py", shell_quote(h5()));
}

TEST_F(Md3dFilesForReaders, VtkFramesReadAsOvitoReadsThem) {
    check("vtk_check.py", shell_quote(dir().string()) + " md3d_tiny " + shell_quote(h5()));
}

TEST_F(Md3dFilesForReaders, XdmfSidecarPointsAtEveryDatasetWithItsShape) {
    check("xdmf_check.py", shell_quote((dir() / "md3d_tiny.xdmf").string()));
}

#ifdef SMELT_CLI

TEST_F(Md3dFilesForReaders, GsdPackageReadsTheConversion) {
    check("convert_check.py", "gsd " + shell_quote(h5()) + " " + shell_quote(dir().string()) + " " +
                                  shell_quote(SMELT_CLI));
}

TEST_F(Md3dFilesForReaders, LammpsStartsFromTheDataFileWithMd3dsEnergies) {
    check("convert_check.py", "lammps " + shell_quote(h5()) + " " + shell_quote(dir().string()) +
                                  " " + shell_quote(SMELT_CLI));
}

#endif

#endif

} // namespace
