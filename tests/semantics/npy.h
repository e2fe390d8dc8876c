// Reads and writes NumPy .npy files (format 1.0/2.0, little-endian, C order, 0-d or 1-d): the
// exchange format between the C++ semantics tests and the CPython oracle (oracle.py), which
// reads and writes them with numpy.load / numpy.save.
#pragma once

#include "array/dtype.h"

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::testing {

static_assert(std::endian::native == std::endian::little, "npy.h writes little-endian data");

// A typed host buffer: a 1-D array, or a scalar (a 0-d array, as NumPy saves a scalar).
struct HostArray {
    DType dtype = DType::Float64;
    bool scalar = false;
    std::vector<unsigned char> bytes;

    size_t size() const { return bytes.size() / dtype_size(dtype); }
    template <class T> T at(size_t k) const {
        T v;
        std::memcpy(&v, bytes.data() + k * sizeof(T), sizeof(T));
        return v;
    }
    template <class T> std::vector<T> values() const {
        std::vector<T> out(size());
        std::memcpy(out.data(), bytes.data(), bytes.size());
        return out;
    }
    template <class T> static HostArray of(const std::vector<T> &v, bool scalar = false) {
        HostArray a;
        a.dtype = dtype_of<T>();
        a.scalar = scalar;
        a.bytes.resize(v.size() * sizeof(T));
        std::memcpy(a.bytes.data(), v.data(), a.bytes.size());
        return a;
    }
    // Element k as text, for failure messages ("-3", "0.25", "nan").
    std::string str(size_t k) const {
        std::ostringstream os;
        os.precision(dtype_is_float(dtype) ? (dtype == DType::Float32 ? 9 : 17) : 0);
        visit_dtype(dtype, [&]<class T>() {
            if constexpr (sizeof(T) == 1)
                os << int(at<T>(k));
            else
                os << at<T>(k);
        });
        return os.str();
    }
};

// NumPy's type string: "<i4", "|u1", "<f8".
inline std::string npy_descr(DType t) {
    char kind = dtype_is_float(t) ? 'f' : dtype_is_signed(t) ? 'i' : 'u';
    return std::string(dtype_size(t) == 1 ? "|" : "<") + kind + std::to_string(dtype_size(t));
}

inline DType dtype_from_npy_descr(const std::string &d) {
    if (d.size() < 3 || (d[0] != '<' && d[0] != '|' && d[0] != '='))
        throw std::runtime_error("unsupported npy dtype '" + d + "' (little-endian numbers only)");
    for (DType t : kAllDTypes)
        if (npy_descr(t).substr(1) == d.substr(1)) return t;
    throw std::runtime_error("unsupported npy dtype '" + d + "'");
}

inline void write_npy(const std::filesystem::path &path, const HostArray &a) {
    std::string header = "{'descr': '" + npy_descr(a.dtype) +
                         "', 'fortran_order': False, 'shape': (" +
                         (a.scalar ? std::string() : std::to_string(a.size()) + ",") + "), }";
    // Magic (6) + version (2) + length (2) + header, padded with spaces to a multiple of 64 and
    // ended by a newline, as the format asks.
    size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    out.write("\x93NUMPY\x01\x00", 8);
    uint16_t len = static_cast<uint16_t>(header.size());
    out.write(reinterpret_cast<const char *>(&len), 2);
    out << header;
    out.write(reinterpret_cast<const char *>(a.bytes.data()),
              static_cast<std::streamsize>(a.bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

inline HostArray read_npy(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    char magic[8];
    in.read(magic, 8);
    if (!in || std::memcmp(magic, "\x93NUMPY", 6) != 0)
        throw std::runtime_error(path.string() + " is not an npy file");
    uint32_t len = 0;
    if (magic[6] == 1) {
        uint16_t l16 = 0;
        in.read(reinterpret_cast<char *>(&l16), 2);
        len = l16;
    } else {
        in.read(reinterpret_cast<char *>(&len), 4);
    }
    std::string header(len, '\0');
    in.read(header.data(), len);
    auto value_of = [&](const std::string &key) {
        size_t p = header.find("'" + key + "':");
        if (p == std::string::npos)
            throw std::runtime_error(path.string() + ": no '" + key + "' in header");
        p = header.find_first_not_of(' ', p + key.size() + 3);
        return header.substr(p);
    };
    std::string descr = value_of("descr");
    descr = descr.substr(1, descr.find('\'', 1) - 1);
    if (value_of("fortran_order").rfind("False", 0) != 0)
        throw std::runtime_error(path.string() + ": Fortran order is not supported");
    std::string shape = value_of("shape");
    shape = shape.substr(1, shape.find(')') - 1);
    HostArray a;
    a.dtype = dtype_from_npy_descr(descr);
    size_t count = 1;
    a.scalar = true;
    std::stringstream dims(shape);
    std::string dim;
    while (std::getline(dims, dim, ','))
        if (dim.find_first_not_of(' ') != std::string::npos) {
            count *= std::stoull(dim);
            a.scalar = false;
        }
    a.bytes.resize(count * dtype_size(a.dtype));
    in.read(reinterpret_cast<char *>(a.bytes.data()), static_cast<std::streamsize>(a.bytes.size()));
    if (!in) throw std::runtime_error(path.string() + ": truncated data");
    return a;
}

} // namespace smelt::testing
