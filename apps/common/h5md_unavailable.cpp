// H5mdWriter when smelt is built without HDF5 (SMELT_WITH_HDF5=OFF or HDF5 not found): creating
// one fails with a message that says so, instead of a link error in every app.
#include "h5md_writer.h"

#include <stdexcept>

namespace smelt::apps {

struct H5mdWriter::Impl {};

H5mdWriter::H5mdWriter(const std::string &path, const H5mdOptions &) : path_(path) {
    throw std::runtime_error(path + ": H5MD output was requested, but smelt was built without "
                                    "HDF5 (SMELT_WITH_HDF5=OFF or HDF5 not found)");
}
H5mdWriter::~H5mdWriter() = default;
void H5mdWriter::write_frame(const Frame &) {}
void H5mdWriter::write_observable(const std::string &, int64_t, double, double) {}
void H5mdWriter::write_thermo(const ThermoSample &) {}
void H5mdWriter::flush() {}
void H5mdWriter::close() {}
int64_t H5mdWriter::frames() const {
    return 0;
}

} // namespace smelt::apps
