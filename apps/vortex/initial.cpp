// vortex's initial states, exactly as apps/vortex/README.md ("Initial conditions") defines them:
// the same formulas, the same order of floating-point operations and the same std::mt19937_64
// draws as validation/vortex_common.py's initial_state(), so both give the same bits.
#include "vortex/config.h"

#include "common/random.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#if SMELT_APPS_HAVE_HDF5
#include "common/hdf5_util.h"
#endif

namespace smelt::apps::vortex {

namespace {

constexpr double kPi = 3.14159265358979323846;

void add(InitialState &s, double x, double y, double gamma) {
    s.x.push_back(x);
    s.y.push_back(y);
    s.gamma.push_back(gamma);
}

InitialState patch(const InitialConfig &ini) {
    InitialState s;
    std::mt19937_64 rng(ini.seed);
    const double base = ini.total_circulation / double(ini.n);
    const double r = ini.radius, side = ini.side;
    for (int64_t k = 0; k < ini.n; ++k) {
        double px, py;
        if (ini.shape == Shape::Disc) {
            do {
                px = (2.0 * uniform01(rng) - 1.0) * r;
                py = (2.0 * uniform01(rng) - 1.0) * r;
            } while (!(px * px + py * py < r * r));
        } else {
            px = (uniform01(rng) - 0.5) * side;
            py = (uniform01(rng) - 0.5) * side;
        }
        // With no spread no number is drawn for the circulation.
        const double gamma =
            ini.circulation_spread > 0
                ? base * (1.0 + ini.circulation_spread * (2.0 * uniform01(rng) - 1.0))
                : base;
        add(s, ini.center[0] + px, ini.center[1] + py, gamma);
    }
    return s;
}

// Calls f(px, py) for every lattice point the shape keeps, rows (j) outer, columns (i) inner.
template <class F> void lattice_points(const InitialConfig &ini, F &&f) {
    const int64_t m = ini.n_side;
    const bool disc = ini.shape == Shape::Disc;
    const double r = ini.radius;
    const double s = disc ? 2.0 * r : ini.side;
    for (int64_t j = 0; j < m; ++j)
        for (int64_t i = 0; i < m; ++i) {
            const double px = -0.5 * s + (double(i) + 0.5) * s / double(m);
            const double py = -0.5 * s + (double(j) + 0.5) * s / double(m);
            if (disc && !(px * px + py * py < r * r)) continue;
            f(px, py);
        }
}

InitialState lattice(const InitialConfig &ini) {
    InitialState s;
    lattice_points(ini, [&](double px, double py) {
        s.x.push_back(ini.center[0] + px);
        s.y.push_back(ini.center[1] + py);
    });
    s.gamma.assign(s.x.size(), ini.total_circulation / double(s.x.size()));
    return s;
}

InitialState lamb_oseen(const InitialConfig &ini) {
    InitialState s;
    const int64_t big_m = ini.rings;
    const double rc = ini.core_radius;
    const double h = ini.extent * rc / double(big_m);
    for (int64_t m = 0; m <= big_m; ++m) {
        const int64_t nm = m == 0 ? 1 : 6 * m;
        const double r_in = m == 0 ? 0.0 : (double(m) - 0.5) * h;
        const double r_out = (double(m) + 0.5) * h;
        const double outer = m == big_m ? 0.0 : std::exp(-(r_out * r_out) / (rc * rc));
        const double g =
            ini.total_circulation * (std::exp(-(r_in * r_in) / (rc * rc)) - outer) / double(nm);
        for (int64_t k = 0; k < nm; ++k) {
            const double th = 2.0 * kPi * double(k) / double(nm);
            add(s, ini.center[0] + double(m) * h * std::cos(th),
                ini.center[1] + double(m) * h * std::sin(th), g);
        }
    }
    return s;
}

InitialState ring(const InitialConfig &ini) {
    InitialState s;
    std::mt19937_64 rng(ini.seed);
    for (int64_t k = 0; k < ini.n; ++k) {
        const double r = ini.perturbation > 0
                             ? ini.radius * (1.0 + ini.perturbation * (2.0 * uniform01(rng) - 1.0))
                             : ini.radius;
        const double th = ini.phase + 2.0 * kPi * double(k) / double(ini.n);
        add(s, ini.center[0] + r * std::cos(th), ini.center[1] + r * std::sin(th), ini.circulation);
    }
    return s;
}

InitialState sheet(const InitialConfig &ini, double length) {
    InitialState s;
    for (int64_t j = 0; j < ini.n; ++j) {
        const double sj = double(j) / double(ini.n);
        const double wave = std::sin(2.0 * kPi * sj);
        add(s, length * (sj + ini.amplitude * wave), -length * ini.amplitude * wave,
            ini.total_circulation / double(ini.n));
    }
    return s;
}

std::string trim(const std::string &s) {
    const char *ws = " \t\r\n";
    const size_t a = s.find_first_not_of(ws);
    if (a == std::string::npos) return "";
    return s.substr(a, s.find_last_not_of(ws) - a + 1);
}

std::vector<std::string> split_commas(const std::string &line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    for (std::string cell; std::getline(in, cell, ',');)
        out.push_back(trim(cell));
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

} // namespace

InitialState read_vortex_csv(const std::string &path) {
    std::ifstream in(path);
    if (!in) throw InitialFileError("path", path + ": cannot read the file");
    InitialState s;
    std::vector<std::string> header;
    int col_x = -1, col_y = -1, col_g = -1;
    std::string raw;
    for (int64_t line_no = 1; std::getline(in, raw); ++line_no) {
        const std::string line = trim(raw);
        if (line.empty() || line[0] == '#') continue;
        const std::string where = path + ":" + std::to_string(line_no) + ": ";
        std::vector<std::string> cells = split_commas(line);
        if (header.empty()) {
            header = cells;
            for (size_t k = 0; k < header.size(); ++k) {
                if (header[k] == "x") col_x = int(k);
                if (header[k] == "y") col_y = int(k);
                if (header[k] == "gamma") col_g = int(k);
            }
            if (col_x < 0 || col_y < 0 || col_g < 0)
                throw InitialFileError("path", where + "the header '" + line +
                                                   "' must name the columns x, y and gamma");
            continue;
        }
        if (cells.size() != header.size())
            throw InitialFileError("path", where + "expected " + std::to_string(header.size()) +
                                               " numbers (one per header column), got " +
                                               std::to_string(cells.size()));
        std::vector<double> values;
        for (const std::string &cell : cells) {
            char *end = nullptr;
            errno = 0;
            const double v = std::strtod(cell.c_str(), &end);
            if (cell.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
                throw InitialFileError("path", where + "'" + cell + "' is not a finite number");
            values.push_back(v);
        }
        add(s, values[size_t(col_x)], values[size_t(col_y)], values[size_t(col_g)]);
    }
    if (header.empty()) throw InitialFileError("path", path + ": no header line (x, y, gamma)");
    if (s.x.empty()) throw InitialFileError("path", path + ": the file holds no vortex");
    return s;
}

#if SMELT_APPS_HAVE_HDF5

namespace {

// Row `row` of a dataset [rows, inner...] as doubles.
std::vector<double> read_row(const h5::Checker &c, hid_t dataset, hsize_t row) {
    const std::vector<hsize_t> dims = h5::shape(c, dataset);
    std::vector<hsize_t> start(dims.size(), 0), count = dims;
    start[0] = row;
    count[0] = 1;
    size_t values = 1;
    for (size_t d = 1; d < dims.size(); ++d)
        values *= size_t(dims[d]);
    h5::Handle file_space(c.id(H5Dget_space(dataset), "dataspace"), H5Sclose);
    c.ok(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start.data(), nullptr, count.data(),
                             nullptr),
         "select a frame");
    h5::Handle mem_space(
        c.id(H5Screate_simple(int(count.size()), count.data(), nullptr), "memory dataspace"),
        H5Sclose);
    std::vector<double> out(values);
    if (values)
        c.ok(H5Dread(dataset, H5T_NATIVE_DOUBLE, mem_space.get(), file_space.get(), H5P_DEFAULT,
                     out.data()),
             "read a frame");
    return out;
}

} // namespace

InitialState read_vortex_h5md(const std::string &path, int64_t frame) {
    auto fail = [&](const std::string &key, const std::string &message) -> InitialFileError {
        return InitialFileError(key, path + ": " + message);
    };
    try {
        h5::QuietErrors quiet;
        const h5::Checker c{path};
        h5::Handle file(c.id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT),
                             "cannot open the file (not HDF5?)"),
                        H5Fclose);
        if (!h5::exists(file.get(), "particles") ||
            !h5::exists(file.get(), "particles/all/position/value"))
            throw fail("path", "not an H5MD file of vortex (no particles/all/position)");
        if (!h5::exists(file.get(), "particles/all/circulation"))
            throw fail("path", "has no particles/all/circulation");
        h5::Handle pos = h5::open_dataset(c, file.get(), "particles/all/position/value");
        const std::vector<hsize_t> dims = h5::shape(c, pos.get());
        if (dims.size() != 3 || dims[2] != 2)
            throw fail("path", "particles/all/position/value is not [frames, N, 2]");
        const int64_t frames = int64_t(dims[0]), n = int64_t(dims[1]);
        if (frame < -frames || frame >= frames)
            throw fail("frame", "frame " + std::to_string(frame) +
                                    " is out of range: the file has " + std::to_string(frames) +
                                    " frames (-" + std::to_string(frames) + " ... " +
                                    std::to_string(frames - 1) + ")");
        const hsize_t f = hsize_t(frame < 0 ? frames + frame : frame);
        const std::vector<double> xy = read_row(c, pos.get(), f);
        // Circulations: the frame field (value [frames, N]) or a time-independent [N] dataset.
        std::vector<double> gamma;
        bool series;
        {
            h5::Handle obj(c.id(H5Oopen(file.get(), "particles/all/circulation", H5P_DEFAULT),
                                "open particles/all/circulation"),
                           H5Oclose);
            series = H5Iget_type(obj.get()) == H5I_GROUP;
        }
        if (series) {
            h5::Handle g = h5::open_dataset(c, file.get(), "particles/all/circulation/value");
            const std::vector<hsize_t> gd = h5::shape(c, g.get());
            if (gd.size() != 2 || gd[0] <= f)
                throw fail("path",
                           "particles/all/circulation/value has no frame " + std::to_string(f));
            gamma = read_row(c, g.get(), f);
        } else {
            h5::Handle g = h5::open_dataset(c, file.get(), "particles/all/circulation");
            gamma = h5::read_all<double>(c, g.get(), H5T_NATIVE_DOUBLE);
        }
        if (int64_t(gamma.size()) != n)
            throw fail("path", "particles/all/circulation has " + std::to_string(gamma.size()) +
                                   " values for " + std::to_string(n) + " positions");
        if (n == 0) throw fail("path", "the file holds no vortex");
        InitialState s;
        for (int64_t k = 0; k < n; ++k)
            add(s, xy[size_t(2 * k)], xy[size_t(2 * k + 1)], gamma[size_t(k)]);
        return s;
    } catch (const InitialFileError &) {
        throw;
    } catch (const std::runtime_error &e) { // HDF5 failures (hdf5_util names the operation)
        throw InitialFileError("path", e.what());
    }
}

#else

InitialState read_vortex_h5md(const std::string &path, int64_t) {
    throw InitialFileError("path", path + ": reading H5MD needs HDF5, and smelt was built "
                                          "without it (SMELT_WITH_HDF5=OFF or HDF5 not found)");
}

#endif

InitialState make_initial_state(const VortexConfig &config) {
    const InitialConfig &ini = config.initial;
    switch (ini.kind) {
    case InitialKind::Patch:
        return patch(ini);
    case InitialKind::Lattice:
        return lattice(ini);
    case InitialKind::LambOseen:
        return lamb_oseen(ini);
    case InitialKind::Pair: {
        InitialState s;
        const double d = ini.separation;
        add(s, ini.center[0] - 0.5 * d, ini.center[1], ini.circulations[0]);
        add(s, ini.center[0] + 0.5 * d, ini.center[1], ini.circulations[1]);
        return s;
    }
    case InitialKind::OppositePair: {
        InitialState s;
        const double d = ini.separation;
        add(s, ini.center[0] - 0.5 * d, ini.center[1], ini.circulation);
        add(s, ini.center[0] + 0.5 * d, ini.center[1], -ini.circulation);
        return s;
    }
    case InitialKind::Ring:
        return ring(ini);
    case InitialKind::Sheet:
        return sheet(ini, config.physics.period);
    case InitialKind::File:
        return ini.format == FileFormat::Csv ? read_vortex_csv(ini.resolved_path)
                                             : read_vortex_h5md(ini.resolved_path, ini.frame);
    }
    return {};
}

int64_t initial_count(const VortexConfig &config) {
    const InitialConfig &ini = config.initial;
    switch (ini.kind) {
    case InitialKind::Patch:
    case InitialKind::Ring:
    case InitialKind::Sheet:
        return ini.n;
    case InitialKind::Lattice: {
        if (ini.shape == Shape::Square) return ini.n_side * ini.n_side;
        int64_t count = 0;
        lattice_points(ini, [&](double, double) { ++count; });
        return count;
    }
    case InitialKind::LambOseen:
        return 1 + 3 * ini.rings * (ini.rings + 1);
    case InitialKind::Pair:
    case InitialKind::OppositePair:
        return 2;
    case InitialKind::File:
        return make_initial_state(config).size();
    }
    return 0;
}

} // namespace smelt::apps::vortex
