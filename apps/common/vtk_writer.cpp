#include "vtk_writer.h"

#include "atomic_file.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#if SMELT_APPS_HAVE_VTK
#include <vtkCellArray.h>
#include <vtkDoubleArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>
#include <vtkTypeInt64Array.h>
#include <vtkXMLPolyDataWriter.h>
#endif

namespace smelt::apps {

namespace fs = std::filesystem;

VtkWriter::VtkWriter(std::string directory, std::string prefix, int dim,
                     std::optional<int64_t> resume_step)
    : directory_(std::move(directory)), prefix_(std::move(prefix)), dim_(dim) {
    if (!available())
        throw std::runtime_error("VTK output was requested, but smelt was built without VTK "
                                 "(SMELT_WITH_VTK=OFF or VTK not found)");
    if (dim_ < 1 || dim_ > 3) throw std::invalid_argument("VtkWriter: dim must be 1, 2 or 3");
    fs::create_directories(directory_);
    if (!resume_step || !fs::exists(pvd_path())) return;
    std::ifstream in(pvd_path());
    std::stringstream text;
    text << in.rdbuf();
    // Frames are named by their step: keep those before the restart.
    const std::regex name(
        std::regex_replace(prefix_, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)") +
        R"(_(\d+)\.vtp)");
    for (auto &entry : pvd_entries(text.str())) {
        std::smatch m;
        if (!std::regex_match(entry.second, m, name)) continue;
        if (std::stoll(m[1]) < *resume_step)
            entries_.push_back(std::move(entry));
        else
            fs::remove(fs::path(directory_) / entry.second); // a frame the restart replaces
    }
    write_pvd();
}

bool VtkWriter::available() {
    return SMELT_APPS_HAVE_VTK != 0;
}

std::string VtkWriter::pvd_path() const {
    return (fs::path(directory_) / (prefix_ + ".pvd")).string();
}

std::string VtkWriter::box_path() const {
    return (fs::path(directory_) / (prefix_ + "_box.vtp")).string();
}

std::string VtkWriter::point_data_name(const std::string &field) {
    return field == "species" ? "type" : field;
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

std::vector<std::pair<double, std::string>> VtkWriter::pvd_entries(const std::string &text) {
    static const std::regex entry(
        R"re(<DataSet timestep="([^"]+)" group="" part="0" file="([^"]+)"/>)re");
    std::vector<std::pair<double, std::string>> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), entry);
         it != std::sregex_iterator(); ++it)
        out.emplace_back(std::stod((*it)[1]), (*it)[2]);
    return out;
}

void VtkWriter::write_pvd() const {
    write_file_atomically(pvd_path(), pvd_text(entries_));
}

#if SMELT_APPS_HAVE_VTK

namespace {

// A field as VTK point data: spatial fields padded to 3 components.
vtkSmartPointer<vtkDataArray> point_data(const Field &f, size_t n) {
    const int comps = f.spatial ? 3 : f.components();
    vtkSmartPointer<vtkDataArray> a;
    if (f.is_integer())
        a = vtkSmartPointer<vtkTypeInt64Array>::New();
    else
        a = vtkSmartPointer<vtkDoubleArray>::New();
    a->SetName(VtkWriter::point_data_name(f.name).c_str());
    a->SetNumberOfComponents(comps);
    a->SetNumberOfTuples(static_cast<vtkIdType>(n));
    for (size_t i = 0; i < n; ++i)
        for (int d = 0; d < comps; ++d) {
            double v = 0.0;
            if (d < f.components())
                v = f.is_integer() ? double(f.integer[size_t(d)][i]) : f.real[size_t(d)][i];
            a->SetComponent(static_cast<vtkIdType>(i), d, v);
        }
    return a;
}

// Uncompressed base64 inside each <DataArray> (VTK's "binary" mode): the encoding both ParaView
// and OVITO read. OVITO rejects compressed files and the "appended" mode (raw or base64); see
// docs/OUTPUTS.md for the measurement behind the choice.
// Written under a temporary name and renamed, so a kill never leaves a torn file.
void write_polydata(vtkPolyData *poly, const std::string &path, const std::string &what) {
    const std::string tmp = temporary_path_for(path);
    vtkNew<vtkXMLPolyDataWriter> writer;
    writer->SetFileName(tmp.c_str());
    writer->SetInputData(poly);
    writer->SetDataModeToBinary();
    writer->SetCompressorTypeToNone();
    writer->SetHeaderTypeToUInt64();
    // Write() reports success even when the file could not be opened; the error code does not.
    if (writer->Write() != 1 || writer->GetErrorCode() != 0) {
        std::error_code ignored;
        fs::remove(tmp, ignored);
        throw std::runtime_error(path + ": VTK could not write " + what);
    }
    publish_file(tmp, path);
}

} // namespace

void VtkWriter::write_frame(const FrameData &frame) {
    const Field *pos = frame.find("position");
    const size_t n = pos ? pos->size() : 0;
    check_frame(frame, int64_t(n), dim_, "VtkWriter");
    if (frame.find("id"))
        throw std::invalid_argument("VtkWriter: frame field 'id' is the writer's");
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    points->SetNumberOfPoints(static_cast<vtkIdType>(n));
    vtkNew<vtkTypeInt64Array> id;
    id->SetName("id");
    id->SetNumberOfTuples(static_cast<vtkIdType>(n));
    vtkNew<vtkCellArray> verts;
    for (size_t i = 0; i < n; ++i) {
        double p[3] = {0, 0, 0};
        for (int d = 0; d < dim_; ++d)
            p[d] = pos->real[size_t(d)][i];
        auto k = static_cast<vtkIdType>(i);
        points->SetPoint(k, p);
        id->SetValue(k, static_cast<vtkTypeInt64>(i));
        verts->InsertNextCell(1, &k);
    }
    vtkNew<vtkPolyData> poly;
    poly->SetPoints(points);
    poly->SetVerts(verts);
    poly->GetPointData()->AddArray(id);
    for (const Field &f : frame.fields)
        if (f.name != "position") poly->GetPointData()->AddArray(point_data(f, n));
    // No field data (a TimeValue): VTK writes it before the <Piece>, and OVITO then no longer
    // recognises the file (its format detection stops at the first element inside <PolyData>),
    // in a .pvd too. The .pvd holds the frames' times; the file names their steps.

    const std::string path = frame_path(frame.step);
    write_polydata(poly, path, "the frame");
    if (!frame.box_edges.empty() && frame.box_edges != box_written_) {
        write_box(frame.box_edges);
        box_written_ = frame.box_edges;
    }

    entries_.emplace_back(frame.time, fs::path(path).filename().string());
    write_pvd();
}

void VtkWriter::write_box(const std::vector<double> &edges) const {
    if (edges.size() != size_t(dim_))
        throw std::invalid_argument("VtkWriter: a box needs " + std::to_string(dim_) + " edges");
    double l[3] = {0, 0, 0};
    for (int d = 0; d < dim_; ++d)
        l[d] = edges[size_t(d)];
    // The corners of [0, lx] x [0, ly] (x [0, lz]): bit a of the corner index is axis a.
    const int corners = dim_ == 3 ? 8 : dim_ == 2 ? 4 : 2;
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    for (int k = 0; k < corners; ++k)
        points->InsertNextPoint((k & 1) ? l[0] : 0.0, (k & 2) ? l[1] : 0.0, (k & 4) ? l[2] : 0.0);
    // The edges: corner pairs that differ in one bit.
    vtkNew<vtkCellArray> lines;
    for (int a = 0; a < corners; ++a)
        for (int bit = 1; bit < corners; bit <<= 1)
            if (!(a & bit)) {
                vtkIdType ends[2] = {a, a | bit};
                lines->InsertNextCell(2, ends);
            }
    vtkNew<vtkPolyData> poly;
    poly->SetPoints(points);
    poly->SetLines(lines);
    write_polydata(poly, box_path(), "the box");
}

#else

void VtkWriter::write_frame(const FrameData &) {
    throw std::runtime_error("built without VTK");
}

void VtkWriter::write_box(const std::vector<double> &) const {
    throw std::runtime_error("built without VTK");
}

#endif

} // namespace smelt::apps
