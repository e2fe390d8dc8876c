// The HDF5 outputs when smelt is built without HDF5 (SMELT_WITH_HDF5=OFF or HDF5 not found):
// creating an H5MD file or reading / writing a checkpoint fails with a message that says so,
// instead of a link error in every app.
#include "checkpoint.h"
#include "h5md_reader.h"
#include "h5md_writer.h"
#include "xdmf_sidecar.h"

#include <stdexcept>

namespace smelt::apps {

namespace {

[[noreturn]] void no_hdf5(const std::string &path, const char *what) {
    throw std::runtime_error(path + ": " + what +
                             ", but smelt was built without HDF5 (SMELT_WITH_HDF5=OFF or HDF5 "
                             "not found)");
}

} // namespace

struct H5mdWriter::Impl {};

H5mdWriter::H5mdWriter(const std::string &path, const H5mdOptions &) : path_(path) {
    no_hdf5(path, "H5MD output was requested");
}
H5mdWriter::H5mdWriter(const std::string &path, const H5mdOptions &, int64_t) : path_(path) {
    no_hdf5(path, "H5MD output was requested");
}
H5mdWriter::~H5mdWriter() = default;
void H5mdWriter::write_frame(const FrameData &) {}
void H5mdWriter::write_observable(const std::string &, int64_t, double, double) {}
void H5mdWriter::write_observables(const std::vector<ObservableColumn> &,
                                   const ObservableSample &) {}
void H5mdWriter::flush() {}
void H5mdWriter::close() {}
int64_t H5mdWriter::frames() const {
    return 0;
}

void write_checkpoint(const std::string &path, const Checkpoint &) {
    no_hdf5(path, "a checkpoint was to be written");
}

Checkpoint read_checkpoint(const std::string &path) {
    no_hdf5(path, "a checkpoint was to be read");
}

H5mdFrame read_h5md_frame(const std::string &path, int64_t) {
    no_hdf5(path, "an H5MD frame was to be read");
}

std::optional<double> read_h5md_observable(const std::string &path, const std::string &, int64_t) {
    no_hdf5(path, "an H5MD observable was to be read");
}

std::string xdmf_sidecar_text(const std::string &h5_path, const std::string &) {
    no_hdf5(h5_path, "an XDMF sidecar was requested");
}
void write_xdmf_sidecar(const std::string &h5_path, const std::string &) {
    no_hdf5(h5_path, "an XDMF sidecar was requested");
}

} // namespace smelt::apps
