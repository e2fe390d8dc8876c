#include "vtk_writer.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#if SMELT_APPS_HAVE_VTK
#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLPolyDataWriter.h>
#endif

namespace smelt::apps {

namespace fs = std::filesystem;

VtkWriter::VtkWriter(std::string directory, std::string prefix, int dim)
    : directory_(std::move(directory)), prefix_(std::move(prefix)), dim_(dim) {
    if (!available())
        throw std::runtime_error("VTK output was requested, but smelt was built without VTK "
                                 "(SMELT_WITH_VTK=OFF or VTK not found)");
    if (dim_ < 1 || dim_ > 3) throw std::invalid_argument("VtkWriter: dim must be 1, 2 or 3");
    fs::create_directories(directory_);
}

bool VtkWriter::available() {
    return SMELT_APPS_HAVE_VTK != 0;
}

std::string VtkWriter::pvd_path() const {
    return (fs::path(directory_) / (prefix_ + ".pvd")).string();
}

std::string VtkWriter::frame_path(int64_t step) const {
    char name[64];
    std::snprintf(name, sizeof name, "_%09lld.vtp", static_cast<long long>(step));
    return (fs::path(directory_) / (prefix_ + name)).string();
}

std::string VtkWriter::pvd_text(const std::vector<std::pair<double, std::string>> &entries) {
    std::string out = "<?xml version=\"1.0\"?>\n"
                      "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
                      "  <Collection>\n";
    for (const auto &[time, file] : entries) {
        char t[40];
        std::snprintf(t, sizeof t, "%.17g", time);
        out += std::string("    <DataSet timestep=\"") + t + "\" group=\"\" part=\"0\" file=\"" +
               file + "\"/>\n";
    }
    return out + "  </Collection>\n</VTKFile>\n";
}

void VtkWriter::write_frame(const Frame &frame) {
#if SMELT_APPS_HAVE_VTK
    const size_t n = frame.x.size();
    std::span<const double> pos[3] = {frame.x, frame.y, frame.z};
    std::span<const double> vel[3] = {frame.vx, frame.vy, frame.vz};
    for (int d = 0; d < dim_; ++d)
        if (pos[d].size() != n || vel[d].size() != n)
            throw std::invalid_argument("VtkWriter: every component needs " + std::to_string(n) +
                                        " values");
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    points->SetNumberOfPoints(static_cast<vtkIdType>(n));
    vtkNew<vtkDoubleArray> velocity;
    velocity->SetName("velocity");
    velocity->SetNumberOfComponents(3);
    velocity->SetNumberOfTuples(static_cast<vtkIdType>(n));
    vtkNew<vtkTypeInt64Array> id;
    id->SetName("id");
    id->SetNumberOfTuples(static_cast<vtkIdType>(n));
    vtkNew<vtkCellArray> verts;
    for (size_t i = 0; i < n; ++i) {
        double p[3] = {0, 0, 0}, v[3] = {0, 0, 0};
        for (int d = 0; d < dim_; ++d) {
            p[d] = pos[d][i];
            v[d] = vel[d][i];
        }
        auto k = static_cast<vtkIdType>(i);
        points->SetPoint(k, p);
        velocity->SetTuple(k, v);
        id->SetValue(k, static_cast<vtkTypeInt64>(i));
        verts->InsertNextCell(1, &k);
    }
    vtkNew<vtkPolyData> poly;
    poly->SetPoints(points);
    poly->SetVerts(verts);
    poly->GetPointData()->AddArray(velocity);
    poly->GetPointData()->AddArray(id);

    const std::string path = frame_path(frame.step);
    vtkNew<vtkXMLPolyDataWriter> writer;
    writer->SetFileName(path.c_str());
    writer->SetInputData(poly);
    writer->SetDataModeToAppended();
    if (writer->Write() != 1) throw std::runtime_error(path + ": VTK could not write the frame");

    entries_.emplace_back(frame.time, fs::path(path).filename().string());
    const std::string pvd = pvd_path(), tmp = pvd + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << pvd_text(entries_);
        if (!out.flush()) throw std::runtime_error(tmp + ": cannot write");
    }
    fs::rename(tmp, pvd);
#else
    (void)frame;
    throw std::runtime_error("built without VTK");
#endif
}

} // namespace smelt::apps
