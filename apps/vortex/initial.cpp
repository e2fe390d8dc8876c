// vortex's initial states, exactly as apps/vortex/README.md ("Initial conditions") defines them:
// the same formulas, the same order of floating-point operations and the same std::mt19937_64
// draws as validation/vortex_common.py's initial_state(), so both give the same bits.
#include "vortex/config.h"

#include "common/h5md_reader.h"
#include "common/random.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

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

InitialState read_vortex_h5md(const std::string &path, int64_t frame) {
    auto fail = [&](const std::string &key, const std::string &message) -> InitialFileError {
        return InitialFileError(key, path + ": " + message);
    };
    H5mdFrame f;
    try {
        f = read_h5md_frame(path, frame);
    } catch (const H5mdFrameRangeError &e) {
        throw fail("frame", "frame " + std::to_string(frame) + " is out of range: the file has " +
                                std::to_string(e.frames()) + " frames (-" +
                                std::to_string(e.frames()) + " ... " +
                                std::to_string(e.frames() - 1) + ")");
    } catch (const std::runtime_error &e) { // not HDF5, not H5MD, unreadable, no HDF5 build
        throw InitialFileError("path", e.what());
    }
    if (f.dim != 2)
        throw fail("path", "not a 2D H5MD file (box dimension " + std::to_string(f.dim) + ")");
    const Field *pos = f.data.find("position");
    if (!pos || pos->real.size() != 2)
        throw fail("path", "particles/all/position holds no 2D positions at frame " +
                               std::to_string(f.index));
    // Circulations: the frame's value of the field, or a time-independent [N] dataset.
    const Field *gamma = f.data.find("circulation");
    if (!gamma)
        throw fail("path",
                   "has no particles/all/circulation (at frame " + std::to_string(f.index) + ")");
    if (gamma->real.size() != 1)
        throw fail("path", "particles/all/circulation is not one real value per vortex");
    if (f.n == 0) throw fail("path", "the file holds no vortex");
    return InitialState{pos->real[0], pos->real[1], gamma->real[0]};
}

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
