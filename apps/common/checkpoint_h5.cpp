// Checkpoint files in HDF5 (layout in checkpoint.h).
#include "common/atomic_file.h"
#include "common/checkpoint.h"
#include "common/hdf5_util.h"

#include <cstdio>
#include <filesystem>

namespace smelt::apps {

namespace {

constexpr int64_t kFormatVersion = 1;

void write_entry(const h5::Checker &c, hid_t group, const std::string &name,
                 const Checkpoint::Values &values) {
    std::visit(
        [&](const auto &v) {
            using T = typename std::decay_t<decltype(v)>::value_type;
            hid_t file_type = H5T_IEEE_F64LE, mem_type = H5T_NATIVE_DOUBLE;
            if constexpr (std::is_same_v<T, int64_t>) {
                file_type = H5T_STD_I64LE;
                mem_type = H5T_NATIVE_INT64;
            } else if constexpr (std::is_same_v<T, uint64_t>) {
                file_type = H5T_STD_U64LE;
                mem_type = H5T_NATIVE_UINT64;
            }
            h5::write_1d(c, group, name, file_type, mem_type, v.data(), hsize_t(v.size()));
        },
        values);
}

Checkpoint::Values read_entry(const h5::Checker &c, hid_t group, const std::string &name) {
    h5::Handle d = h5::open_dataset(c, group, name);
    h5::Handle type(c.id(H5Dget_type(d.get()), "dataset type"), H5Tclose);
    if (H5Tget_class(type.get()) == H5T_FLOAT)
        return h5::read_all<double>(c, d.get(), H5T_NATIVE_DOUBLE);
    if (H5Tget_class(type.get()) == H5T_INTEGER && H5Tget_sign(type.get()) == H5T_SGN_NONE)
        return h5::read_all<uint64_t>(c, d.get(), H5T_NATIVE_UINT64);
    return h5::read_all<int64_t>(c, d.get(), H5T_NATIVE_INT64);
}

} // namespace

void write_checkpoint(const std::string &path, const Checkpoint &ck) {
    const std::string tmp = temporary_path_for(path);
    {
        h5::QuietErrors quiet; // the exceptions say what failed
        const h5::Checker c{tmp};
        h5::Handle file(c.id(H5Fcreate(tmp.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT),
                             "cannot create the file"),
                        H5Fclose);
        h5::Handle group = h5::make_group(c, file.get(), "checkpoint");
        h5::attr_string(c, group.get(), "app", ck.app);
        h5::attr_int64(c, group.get(), "format_version", kFormatVersion);
        h5::attr_int64(c, group.get(), "step", ck.step);
        h5::attr_double(c, group.get(), "time", ck.time);
        h5::attr_string(c, group.get(), "config_yaml", ck.config_yaml);
        for (const auto &[name, values] : ck.entries())
            write_entry(c, group.get(), name, values);
        group.reset();
        c.ok(H5Fclose(file.release()), "close");
    }
    publish_file(tmp, path);
}

Checkpoint read_checkpoint(const std::string &path) {
    if (!std::filesystem::is_regular_file(path))
        throw CheckpointError(path + ": no such checkpoint file");
    try {
        h5::QuietErrors quiet;
        const h5::Checker c{path};
        h5::Handle file(c.id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                             "cannot open the file (not an HDF5 file?)"),
                        H5Fclose);
        h5::Handle group = h5::open_group(c, file.get(), "checkpoint");
        const int64_t version = h5::read_attr_int64(c, group.get(), "format_version");
        if (version != kFormatVersion)
            throw CheckpointError(path + ": checkpoint format " + std::to_string(version) +
                                  ", this build reads format " + std::to_string(kFormatVersion));
        Checkpoint ck;
        ck.source = path;
        ck.app = h5::read_attr_string(c, group.get(), "app");
        ck.step = h5::read_attr_int64(c, group.get(), "step");
        ck.time = h5::read_attr_double(c, group.get(), "time");
        ck.config_yaml = h5::read_attr_string(c, group.get(), "config_yaml");
        for (const std::string &name : h5::children(c, group.get()))
            ck.put(name, read_entry(c, group.get(), name));
        return ck;
    } catch (const CheckpointError &) {
        throw;
    } catch (const std::exception &e) {
        throw CheckpointError(std::string(e.what()) + " (reading a checkpoint)");
    }
}

} // namespace smelt::apps
