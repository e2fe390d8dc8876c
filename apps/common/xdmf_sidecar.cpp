#include "common/xdmf_sidecar.h"

#include "common/hdf5_util.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

namespace smelt::apps {

namespace {

namespace fs = std::filesystem;

struct Element {
    std::string name;
    std::vector<hsize_t> shape; // value's: [frames, N] or [frames, N, components]
    bool integer = false;
};

std::string join(const std::vector<hsize_t> &v) {
    std::string s;
    for (hsize_t d : v)
        s += (s.empty() ? "" : " ") + std::to_string(d);
    return s;
}

std::string number(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

// Row `frame` of /particles/all/<name>/value as a HyperSlab of shape [N] or [N, components].
std::string slab(const Element &e, hsize_t frame, const std::string &h5_name, int indent) {
    const std::string pad(size_t(indent), ' ');
    const size_t rank = e.shape.size();
    std::vector<hsize_t> start(rank, 0), stride(rank, 1), count = e.shape;
    start[0] = frame;
    count[0] = 1;
    std::vector<hsize_t> result(e.shape.begin() + 1, e.shape.end());
    return pad + "<DataItem ItemType=\"HyperSlab\" Dimensions=\"" + join(result) +
           "\" Type=\"HyperSlab\">\n" + pad + "  <DataItem Dimensions=\"3 " + std::to_string(rank) +
           "\" Format=\"XML\">" + join(start) + " " + join(stride) + " " + join(count) +
           "</DataItem>\n" + pad + "  <DataItem Dimensions=\"" + join(e.shape) +
           "\" NumberType=\"" + (e.integer ? "Int" : "Float") +
           "\" Precision=\"8\" Format=\"HDF\">" + h5_name + ":/particles/all/" + e.name +
           "/value</DataItem>\n" + pad + "</DataItem>\n";
}

bool is_group(hid_t parent, const std::string &name) {
    h5::Handle object(H5Oopen(parent, name.c_str(), H5P_DEFAULT), H5Oclose);
    return object.get() >= 0 && H5Iget_type(object.get()) == H5I_GROUP;
}

} // namespace

std::string xdmf_sidecar_text(const std::string &h5_path, const std::string &h5_name) {
    h5::Checker c{h5_path};
    h5::QuietErrors quiet;
    h5::Handle file(H5Fopen(h5_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (file.get() < 0) throw std::runtime_error(h5_path + ": cannot open it as an HDF5 file");
    if (!h5::exists(file.get(), "particles") || !h5::exists(file.get(), "particles/all") ||
        !h5::exists(file.get(), "particles/all/box"))
        throw std::runtime_error(h5_path + ": not an H5MD file with /particles/all");
    h5::Handle particles = h5::open_group(c, file.get(), "particles/all");
    h5::Handle box = h5::open_group(c, particles.get(), "box");
    const int dim = h5::read_attr_ints(c, box.get(), "dimension").at(0);

    std::vector<Element> elements;
    Element position;
    for (const std::string &name : h5::children(c, particles.get())) {
        if (name == "box" || !is_group(particles.get(), name)) continue;
        h5::Handle g = h5::open_group(c, particles.get(), name);
        if (!h5::exists(g.get(), "value")) continue;
        h5::Handle value = h5::open_dataset(c, g.get(), "value");
        h5::Handle type(c.id(H5Dget_type(value.get()), "dataset type"), H5Tclose);
        Element e{name, h5::shape(c, value.get()), H5Tget_class(type.get()) == H5T_INTEGER};
        if (e.shape.size() < 2 || e.shape.size() > 3) continue; // not per particle
        if (name == "position")
            position = e;
        else
            elements.push_back(e);
    }
    std::vector<double> times; // none before the first frame
    if (!position.name.empty()) {
        h5::Handle pos_group = h5::open_group(c, particles.get(), "position");
        h5::Handle time_set = h5::open_dataset(c, pos_group.get(), "time");
        times = h5::read_all<double>(c, time_set.get(), H5T_NATIVE_DOUBLE);
    }
    const hsize_t frames = position.shape.empty() ? 0 : position.shape[0];
    const hsize_t n = frames ? position.shape[1] : 0;

    std::string out = "<?xml version=\"1.0\" ?>\n"
                      "<!-- An XDMF view of " +
                      h5_name +
                      " (H5MD): written by smelt, see apps/common/xdmf_sidecar.h -->\n"
                      "<Xdmf Version=\"3.0\">\n  <Domain>\n"
                      "    <Grid Name=\"particles\" GridType=\"Collection\" "
                      "CollectionType=\"Temporal\">\n";
    for (hsize_t k = 0; k < frames && k < times.size(); ++k) {
        // An element with fewer rows than position (a write cut short) is left out of the grid.
        out += "      <Grid Name=\"frame " + std::to_string(k) + "\" GridType=\"Uniform\">\n";
        out += "        <Time Value=\"" + number(times[k]) + "\"/>\n";
        out += "        <Topology TopologyType=\"Polyvertex\" NumberOfElements=\"" +
               std::to_string(n) + "\" NodesPerElement=\"1\"/>\n";
        out += std::string("        <Geometry GeometryType=\"") + (dim == 3 ? "XYZ" : "XY") +
               "\">\n" + slab(position, k, h5_name, 10) + "        </Geometry>\n";
        for (const Element &e : elements) {
            if (e.shape[0] <= k || e.shape[1] != n) continue;
            const hsize_t comps = e.shape.size() == 3 ? e.shape[2] : 1;
            const char *kind = comps == 1 ? "Scalar" : comps == 3 ? "Vector" : "Matrix";
            out += "        <Attribute Name=\"" + e.name + "\" AttributeType=\"" + kind +
                   "\" Center=\"Node\">\n" + slab(e, k, h5_name, 10) + "        </Attribute>\n";
        }
        out += "      </Grid>\n";
    }
    return out + "    </Grid>\n  </Domain>\n</Xdmf>\n";
}

void write_xdmf_sidecar(const std::string &h5_path, const std::string &xdmf_path) {
    const std::string text = xdmf_sidecar_text(
        h5_path,
        fs::relative(fs::absolute(h5_path), fs::absolute(xdmf_path).parent_path()).string());
    const std::string tmp = xdmf_path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << text;
        if (!out.flush()) throw std::runtime_error(tmp + ": cannot write");
    }
    fs::rename(tmp, xdmf_path);
}

} // namespace smelt::apps
