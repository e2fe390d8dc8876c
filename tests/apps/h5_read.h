// Reading datasets back with the HDF5 C API (for tests of files the apps write).
#pragma once

#if SMELT_APPS_HAVE_HDF5
#include <hdf5.h>

#include <cstring>
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

// A string attribute (scalar or 1-D) of variable- or fixed-length strings (H5MD's own attributes
// are fixed-length, NUL-padded); empty when it is missing.
inline std::vector<std::string> h5_string_attr(hid_t f, const std::string &object,
                                               const std::string &name) {
    hid_t a = H5Aopen_by_name(f, object.c_str(), name.c_str(), H5P_DEFAULT, H5P_DEFAULT);
    if (a < 0) return {};
    hid_t space = H5Aget_space(a);
    const auto count = size_t(H5Sget_simple_extent_npoints(space));
    H5Sclose(space);
    hid_t file_type = H5Aget_type(a);
    const bool fixed = H5Tis_variable_str(file_type) == 0;
    const size_t width = H5Tget_size(file_type);
    H5Tclose(file_type);
    std::vector<std::string> out;
    hid_t t = H5Tcopy(H5T_C_S1);
    if (fixed) {
        H5Tset_size(t, width);
        H5Tset_strpad(t, H5T_STR_NULLPAD); // NUL-terminated would drop a full string's last char
        std::string buf(count * width, '\0');
        if (H5Aread(a, t, buf.data()) >= 0)
            for (size_t k = 0; k < count; ++k) {
                std::string v = buf.substr(k * width, width);
                out.push_back(v.substr(0, v.find('\0')));
            }
    } else {
        H5Tset_size(t, H5T_VARIABLE);
        H5Tset_cset(t, H5T_CSET_UTF8);
        std::vector<char *> raw(count, nullptr);
        if (H5Aread(a, t, raw.data()) >= 0)
            for (char *p : raw) {
                out.emplace_back(p ? p : "");
                H5free_memory(p);
            }
    }
    H5Tclose(t);
    H5Aclose(a);
    return out;
}

// The box edges of the last frame of /particles/all/box/edges (value [frames, dim, dim], the
// diagonal), or of the dataset of a file with one box.
inline std::vector<double> h5_box_edges(hid_t f) {
    std::vector<hsize_t> shape;
    if (H5Lexists(f, "particles/all/box/edges/value", H5P_DEFAULT) <= 0)
        return h5_doubles(f, "particles/all/box/edges");
    const auto v = h5_doubles(f, "particles/all/box/edges/value", &shape);
    if (shape.size() != 3 || shape[0] == 0) return {};
    const size_t dim = shape[1], last = (shape[0] - 1) * dim * dim;
    std::vector<double> out;
    for (size_t a = 0; a < dim; ++a)
        out.push_back(v[last + a * dim + a]);
    return out;
}

// The first difference between the H5MD time series (value, step, time) named in `series` of two
// files, "" when every one is identical: doubles compared as bit patterns, integers exactly,
// shapes too. A series missing from either file is a difference.
inline std::string h5_series_difference(const std::string &a, const std::string &b,
                                        const std::vector<std::string> &series) {
    hid_t fa = H5Fopen(a.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t fb = H5Fopen(b.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    std::string diff;
    if (fa < 0 || fb < 0) diff = "cannot open " + (fa < 0 ? a : b);
    for (const std::string &s : series)
        for (const char *part : {"/value", "/step", "/time"}) {
            if (!diff.empty()) break;
            const std::string path = s + part;
            bool integer = false;
            if (H5Lexists(fa, path.c_str(), H5P_DEFAULT) > 0) {
                hid_t d = H5Dopen2(fa, path.c_str(), H5P_DEFAULT);
                hid_t t = H5Dget_type(d);
                integer = H5Tget_class(t) == H5T_INTEGER;
                H5Tclose(t);
                H5Dclose(d);
            }
            std::vector<hsize_t> sa, sb;
            bool same;
            if (integer) {
                auto va = h5_read<long long>(fa, path, H5T_NATIVE_LLONG, &sa);
                auto vb = h5_read<long long>(fb, path, H5T_NATIVE_LLONG, &sb);
                same = va == vb;
            } else {
                auto va = h5_doubles(fa, path, &sa), vb = h5_doubles(fb, path, &sb);
                same = va.size() == vb.size() &&
                       std::memcmp(va.data(), vb.data(), va.size() * sizeof(double)) == 0;
            }
            if (sa.empty())
                diff = path + ": missing in " + a;
            else if (sa != sb)
                diff = path + ": shapes differ";
            else if (!same)
                diff = path + ": values differ";
        }
    if (fa >= 0) H5Fclose(fa);
    if (fb >= 0) H5Fclose(fb);
    return diff;
}

} // namespace smelt::apps::test_util
#endif
