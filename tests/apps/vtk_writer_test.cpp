// VTK output: .vtp frames read back with VTK's own XML reader; the .pvd index lists every frame.
#include "common/vtk_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <unistd.h>

#if SMELT_APPS_HAVE_VTK
#include <vtkDataArray.h>
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
        w.write_frame({0, 0.0, x, y, {}, vx, vy, {}});
        // After each frame the index is complete and lists what exists so far.
        std::ifstream pvd(w.pvd_path());
        std::stringstream s;
        s << pvd.rdbuf();
        EXPECT_NE(s.str().find("md_000000000.vtp"), std::string::npos);
        EXPECT_NE(s.str().find("</VTKFile>"), std::string::npos);
        x[3] = 7.0;
        w.write_frame({20, 0.1, x, y, {}, vx, vy, {}});
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
    fs::remove_all(dir);
}

#else

TEST(Vtk, WithoutVtkTheWriterSaysSo) {
    EXPECT_FALSE(VtkWriter::available());
    EXPECT_THROW(VtkWriter(temp_dir("none").string(), "md"), std::runtime_error);
}

#endif

} // namespace
