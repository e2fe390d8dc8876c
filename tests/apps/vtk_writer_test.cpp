// VTK output: .vtp frames read back with VTK's own XML reader; the .pvd index lists every frame.
#include "common/vtk_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#if SMELT_APPS_HAVE_VTK
#include <vtkCell.h>
#include <vtkDataArray.h>
#include <vtkFieldData.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPolyData.h>
#include <vtkXMLPolyDataReader.h>
#endif

using namespace smelt::apps;
namespace fs = std::filesystem;

namespace {

fs::path temp_dir(const std::string &name) {
    return fs::temp_directory_path() / ("smelt_" + std::to_string(getpid()) + "_" + name);
}

TEST(Vtk, PvdListsEveryFrame) {
    std::string text = VtkWriter::pvd_text({{0.0, "a_000000000.vtp"}, {0.25, "a_000000050.vtp"}});
    EXPECT_NE(text.find("type=\"Collection\""), std::string::npos);
    EXPECT_NE(
        text.find("<DataSet timestep=\"0.25\" group=\"\" part=\"0\" file=\"a_000000050.vtp\"/>"),
        std::string::npos);
    EXPECT_EQ(text.rfind("</VTKFile>\n"), text.size() - 11);
}

#if SMELT_APPS_HAVE_VTK

TEST(Vtk, FramesReadBackWithVtkXmlReader) {
    fs::path dir = temp_dir("vtk");
    std::vector<double> x{0.5, 1.5, 2.5, 3.25}, y{1.0, 2.0, 3.0, 4.0};
    std::vector<double> vx{0.1, 0.2, 0.3, 0.4}, vy{-1.0, -2.0, -3.0, -4.0};
    {
        VtkWriter w(dir.string(), "md");
        w.write_frame(
            {0, 0.0, {Field::vector("position", {x, y}), Field::vector("velocity", {vx, vy})}});
        // After each frame the index is complete and lists what exists so far.
        std::ifstream pvd(w.pvd_path());
        std::stringstream s;
        s << pvd.rdbuf();
        EXPECT_NE(s.str().find("md_000000000.vtp"), std::string::npos);
        EXPECT_NE(s.str().find("</VTKFile>"), std::string::npos);
        x[3] = 7.0;
        w.write_frame({20,
                       0.1,
                       {Field::vector("position", {x, y}), Field::vector("velocity", {vx, vy}),
                        Field::integers("species", {{0, 1, 1, 0}})}});
    }
    std::ifstream pvd(dir / "md.pvd");
    std::stringstream s;
    s << pvd.rdbuf();
    std::string text = s.str();
    std::regex entry(R"re(<DataSet timestep="([^"]+)" group="" part="0" file="([^"]+)"/>)re");
    std::vector<std::pair<double, std::string>> entries;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
         it != std::sregex_iterator(); ++it)
        entries.emplace_back(std::stod((*it)[1]), (*it)[2]);
    ASSERT_EQ(entries.size(), 2u);
    EXPECT_EQ(entries[1], (std::pair<double, std::string>{0.1, "md_000000020.vtp"}));

    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / entries[1].second).c_str());
    reader->Update();
    vtkPolyData *poly = reader->GetOutput();
    ASSERT_EQ(poly->GetNumberOfPoints(), 4);
    EXPECT_EQ(poly->GetNumberOfVerts(), 4);
    for (vtkIdType i = 0; i < 4; ++i) {
        double p[3];
        poly->GetPoint(i, p);
        EXPECT_EQ(p[0], x[size_t(i)]);
        EXPECT_EQ(p[1], y[size_t(i)]);
        EXPECT_EQ(p[2], 0.0);
    }
    vtkDataArray *vel = poly->GetPointData()->GetArray("velocity");
    ASSERT_NE(vel, nullptr);
    EXPECT_EQ(vel->GetNumberOfComponents(), 3);
    EXPECT_EQ(vel->GetComponent(2, 0), 0.3);
    EXPECT_EQ(vel->GetComponent(2, 1), -3.0);
    EXPECT_EQ(vel->GetComponent(2, 2), 0.0);
    vtkDataArray *id = poly->GetPointData()->GetArray("id");
    ASSERT_NE(id, nullptr);
    EXPECT_EQ(id->GetComponent(3, 0), 3.0);
    // "species" is written as "type", the name OVITO maps to particle types.
    EXPECT_EQ(poly->GetPointData()->GetArray("species"), nullptr);
    vtkDataArray *species = poly->GetPointData()->GetArray("type");
    ASSERT_NE(species, nullptr);
    EXPECT_EQ(species->GetNumberOfComponents(), 1);
    EXPECT_EQ(species->GetDataType(), VTK_TYPE_INT64);
    EXPECT_EQ(species->GetComponent(1, 0), 1.0);
    EXPECT_EQ(species->GetComponent(3, 0), 0.0);
    // No field data: OVITO's format detection fails on a <FieldData> before the <Piece>.
    EXPECT_EQ(poly->GetFieldData()->GetNumberOfArrays(), 0);
    // No box in these frames (FrameData::box_edges empty): no box file.
    EXPECT_FALSE(fs::exists(dir / "md_box.vtp"));
    fs::remove_all(dir);
}

// The encoding OVITO reads: base64 inside each DataArray, no compressor, no appended section.
TEST(Vtk, FramesAreUncompressedInlineBase64) {
    fs::path dir = temp_dir("vtk_encoding");
    VtkWriter w(dir.string(), "e", 2);
    w.write_frame({0, 0.0, {Field::vector("position", {{0.5, 1.5}, {2.5, 3.5}})}});
    std::ifstream in(w.frame_path(0));
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    EXPECT_EQ(text.find("compressor"), std::string::npos);
    EXPECT_EQ(text.find("AppendedData"), std::string::npos);
    EXPECT_EQ(text.find("format=\"appended\""), std::string::npos);
    EXPECT_NE(text.find("format=\"binary\""), std::string::npos);
    EXPECT_NE(text.find("header_type=\"UInt64\""), std::string::npos);
    fs::remove_all(dir);
}

// The box outline: its own file of corners and edges (lines), rewritten when the box changes.
TEST(Vtk, BoxOutlineIsItsOwnDataset) {
    fs::path dir = temp_dir("vtk_box");
    VtkWriter w(dir.string(), "b", 3);
    FrameData f{0, 0.0, {Field::vector("position", {{0.5}, {1.5}, {2.5}})}};
    f.box_edges = {2.0, 3.0, 4.0};
    w.write_frame(f);
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(w.box_path().c_str());
    reader->Update();
    vtkPolyData *box = reader->GetOutput();
    ASSERT_EQ(box->GetNumberOfPoints(), 8);
    EXPECT_EQ(box->GetNumberOfLines(), 12);
    EXPECT_EQ(box->GetNumberOfVerts(), 0);
    double bounds[6];
    box->GetBounds(bounds);
    EXPECT_EQ((std::vector<double>(bounds, bounds + 6)),
              (std::vector<double>{0.0, 2.0, 0.0, 3.0, 0.0, 4.0}));
    // Every line is one edge: its ends differ along exactly one axis by that axis' length.
    for (vtkIdType c = 0; c < box->GetNumberOfCells(); ++c) {
        double a[3], b[3];
        box->GetPoint(box->GetCell(c)->GetPointId(0), a);
        box->GetPoint(box->GetCell(c)->GetPointId(1), b);
        int differ = 0;
        for (int d = 0; d < 3; ++d)
            if (a[d] != b[d]) {
                ++differ;
                EXPECT_EQ(std::abs(a[d] - b[d]), bounds[2 * d + 1]);
            }
        EXPECT_EQ(differ, 1);
    }
    // The .pvd lists the particle frames only (OVITO reads each DataSet as a frame).
    EXPECT_EQ(VtkWriter::pvd_text({{0.0, "b_000000000.vtp"}}).find("box"), std::string::npos);
    f.step = 10;
    f.box_edges = {2.0, 3.0, 5.0};
    w.write_frame(f);
    vtkNew<vtkXMLPolyDataReader> again;
    again->SetFileName(w.box_path().c_str());
    again->Update();
    again->GetOutput()->GetBounds(bounds);
    EXPECT_EQ(bounds[5], 5.0);
    fs::remove_all(dir);
}

// 3D points, and a restart at step 20: the index keeps the frames before it, the files of the
// later ones are deleted, new frames are listed after the kept ones.
TEST(Vtk, ThreeDimensionsAndResume) {
    fs::path dir = temp_dir("vtk3d");
    std::vector<double> x{0.5, 1.5}, y{1.0, 2.0}, z{-1.0, 3.0};
    auto frame = [&](int64_t step) {
        return FrameData{step, 0.01 * double(step), {Field::vector("position", {x, y, z})}};
    };
    {
        VtkWriter w(dir.string(), "r", 3);
        for (int64_t s : {0, 10, 20, 30})
            w.write_frame(frame(s));
    }
    EXPECT_TRUE(fs::exists(dir / "r_000000030.vtp"));
    {
        VtkWriter w(dir.string(), "r", 3, int64_t(20));
        z[1] = 7.0;
        w.write_frame(frame(25));
    }
    std::ifstream in(dir / "r.pvd");
    std::stringstream s;
    s << in.rdbuf();
    auto entries = VtkWriter::pvd_entries(s.str());
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_EQ(entries[0].second, "r_000000000.vtp");
    EXPECT_EQ(entries[1].second, "r_000000010.vtp");
    EXPECT_EQ(entries[2], (std::pair<double, std::string>{0.25, "r_000000025.vtp"}));
    EXPECT_FALSE(fs::exists(dir / "r_000000020.vtp"));
    EXPECT_FALSE(fs::exists(dir / "r_000000030.vtp"));
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName((dir / "r_000000025.vtp").c_str());
    reader->Update();
    double p[3];
    reader->GetOutput()->GetPoint(1, p);
    EXPECT_EQ(p[0], 1.5);
    EXPECT_EQ(p[1], 2.0);
    EXPECT_EQ(p[2], 7.0);
    fs::remove_all(dir);
}

#else

TEST(Vtk, WithoutVtkTheWriterSaysSo) {
    EXPECT_FALSE(VtkWriter::available());
    EXPECT_THROW(VtkWriter(temp_dir("none").string(), "md"), std::runtime_error);
}

#endif

} // namespace
