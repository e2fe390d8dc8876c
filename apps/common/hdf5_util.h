// Small RAII and error-checking helpers over the HDF5 C API, shared by the H5MD writer and the
// checkpoint file. Internal to apps/common (only built with HDF5); every failure throws
// std::runtime_error naming the file and the operation.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace smelt::apps::h5 {

// An HDF5 identifier closed by its own close function (H5Fclose, H5Gclose, ...).
class Handle {
public:
    Handle() = default;
    Handle(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
    Handle(Handle &&o) noexcept : id_(o.id_), close_(o.close_) { o.id_ = -1; }
    Handle &operator=(Handle &&o) noexcept;
    Handle(const Handle &) = delete;
    Handle &operator=(const Handle &) = delete;
    ~Handle() { reset(); }
    hid_t get() const { return id_; }
    hid_t release() {
        hid_t id = id_;
        id_ = -1;
        return id;
    }
    void reset();

private:
    hid_t id_ = -1;
    herr_t (*close_)(hid_t) = nullptr;
};

// Turns negative HDF5 return values into exceptions naming `path`.
struct Checker {
    std::string path;
    hid_t id(hid_t v, const std::string &what) const;
    void ok(herr_t v, const std::string &what) const;
};

Handle make_group(const Checker &c, hid_t parent, const std::string &name);
Handle open_group(const Checker &c, hid_t parent, const std::string &name);
Handle open_dataset(const Checker &c, hid_t parent, const std::string &name);
bool exists(hid_t parent, const std::string &name);
// The names of the links in a group, in name order.
std::vector<std::string> children(const Checker &c, hid_t group);

void attr_string(const Checker &c, hid_t obj, const std::string &name, const std::string &value);
void attr_strings(const Checker &c, hid_t obj, const std::string &name,
                  const std::vector<std::string> &values);
// Fixed-length ASCII strings, as the H5MD specification asks for its own attributes
// (h5md/author@name, h5md/creator@name and @version, box@boundary, @unit).
void attr_fixed_string(const Checker &c, hid_t obj, const std::string &name,
                       const std::string &value);
void attr_fixed_strings(const Checker &c, hid_t obj, const std::string &name,
                        const std::vector<std::string> &values);
void attr_ints(const Checker &c, hid_t obj, const std::string &name, const std::vector<int> &v);
void attr_int(const Checker &c, hid_t obj, const std::string &name, int v); // scalar int32
void attr_int64(const Checker &c, hid_t obj, const std::string &name, int64_t v);
void attr_double(const Checker &c, hid_t obj, const std::string &name, double v);

// A scalar string attribute, variable- or fixed-length.
std::string read_attr_string(const Checker &c, hid_t obj, const std::string &name);
int64_t read_attr_int64(const Checker &c, hid_t obj, const std::string &name);
double read_attr_double(const Checker &c, hid_t obj, const std::string &name);
std::vector<int> read_attr_ints(const Checker &c, hid_t obj, const std::string &name);
// A 1-D attribute of variable- or fixed-length strings.
std::vector<std::string> read_attr_strings(const Checker &c, hid_t obj, const std::string &name);

// Silences HDF5's own error printing while in scope (the exceptions above say what failed).
class QuietErrors {
public:
    QuietErrors();
    ~QuietErrors();
    QuietErrors(const QuietErrors &) = delete;
    QuietErrors &operator=(const QuietErrors &) = delete;

private:
    H5E_auto2_t func_ = nullptr;
    void *data_ = nullptr;
};

// The shape of a dataset.
std::vector<hsize_t> shape(const Checker &c, hid_t dataset);
// A whole 1-D dataset converted to mem_type (H5T_NATIVE_DOUBLE, H5T_NATIVE_INT64, ...).
template <class T> std::vector<T> read_all(const Checker &c, hid_t dataset, hid_t mem_type);
// A fixed-size 1-D dataset written in one go.
void write_1d(const Checker &c, hid_t parent, const std::string &name, hid_t file_type,
              hid_t mem_type, const void *data, hsize_t count);

// How many hard links point at an object (a dataset shared by several groups has more than 1).
unsigned link_count(const Checker &c, hid_t object);

// A time-dependent H5MD element: value [frames, inner...], step [frames], time [frames].
// `shares_clock`: step and time are hard links to another element's (H5MD asks this of
// box/edges and image, which must share position's), so appending writes only the value.
struct Series {
    Handle group, value, step, time;
    std::vector<hsize_t> inner;
    hid_t mem_type = -1; // H5T_NATIVE_DOUBLE or H5T_NATIVE_INT64
    hsize_t frames = 0;
    bool shares_clock = false;
};

// Creates <parent>/<name>/{value, step, time}, value of file type float64 (real) or int64.
Series make_series(const Checker &c, hid_t parent, const std::string &name,
                   std::vector<hsize_t> inner, bool integer = false);
// Creates <parent>/<name>/value with step and time hard-linked to `clock`'s (shares_clock).
Series make_series_on_clock(const Checker &c, hid_t parent, const std::string &name,
                            std::vector<hsize_t> inner, bool integer, const Series &clock);
// Opens an existing series and drops its entries at steps >= first_dropped_step (the steps of
// a series increase), so appending continues after the last kept entry. With `may_share_clock`
// a series whose step dataset has several links is taken to share another series' clock.
Series resume_series(const Checker &c, hid_t parent, const std::string &name,
                     int64_t first_dropped_step, bool may_share_clock = false);
// Appends one entry (data: the inner values in mem_type). A series that shares its clock gets
// only the value: its clock's owner must have been appended first for this entry.
void append(const Checker &c, Series &s, int64_t step, double time, const void *data);

} // namespace smelt::apps::h5
