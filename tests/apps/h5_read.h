// Reading datasets back with the HDF5 C API (for tests of files the apps write).
#pragma once

#if SMELT_APPS_HAVE_HDF5
#include <hdf5.h>

#include <string>
#include <vector>

namespace smelt::apps::test_util {

// The whole dataset as T (converted by HDF5 to mem_type) and its shape; empty when missing.
template <class T>
std::vector<T> h5_read(hid_t file, const std::string &path, hid_t mem_type,
                       std::vector<hsize_t> *shape = nullptr) {
    if (H5Lexists(file, path.c_str(), H5P_DEFAULT) <= 0) return {};
    hid_t d = H5Dopen2(file, path.c_str(), H5P_DEFAULT);
    if (d < 0) return {};
    hid_t space = H5Dget_space(d);
    const int rank = H5Sget_simple_extent_ndims(space);
    std::vector<hsize_t> dims(static_cast<size_t>(rank));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    H5Sclose(space);
    size_t count = 1;
    for (hsize_t s : dims)
        count *= s;
    std::vector<T> out(count);
    if (count && H5Dread(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0) out.clear();
    H5Dclose(d);
    if (shape) *shape = dims;
    return out;
}

inline std::vector<double> h5_doubles(hid_t f, const std::string &path,
                                      std::vector<hsize_t> *shape = nullptr) {
    return h5_read<double>(f, path, H5T_NATIVE_DOUBLE, shape);
}
inline std::vector<long long> h5_steps(hid_t f, const std::string &path) {
    return h5_read<long long>(f, path, H5T_NATIVE_LLONG);
}

} // namespace smelt::apps::test_util
#endif
