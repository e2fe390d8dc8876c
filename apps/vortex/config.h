// vortex's configuration: the typed form of a YAML file (schema in apps/vortex/README.md). The
// shared run keys (backend, precision, threads, output) are the kit's RunConfig
// (apps/common/run_config.h); vortex adds physics, integrator, evaluation and initial.
// parse_vortex_config() checks every key (type, range, unknown keys, keys that do not apply to
// the chosen kind or shape, combinations) and resolves the vortex count (reading an initial file),
// so a config that parses can be run; errors are ConfigError naming the file, line, column and
// key path.
#pragma once

#include "common/config_yaml.h"
#include "common/run_config.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::apps::vortex {

// The kernels' integer flags (physics.py: POINT, KRASNY, GAUSSIAN).
enum class Regularisation { Point = 0, Krasny = 1, Gaussian = 2 };
enum class Integrator { Euler, Rk2, Heun, Rk4 };
enum class Method { Auto, Elementwise, Tiled };
enum class InitialKind { Patch, Lattice, LambOseen, Pair, OppositePair, Ring, Sheet, File };
enum class Shape { Disc, Square };
enum class FileFormat { Csv, H5md };

struct PhysicsConfig {
    Regularisation regularisation = Regularisation::Point;
    double delta = 0.0; // blob radius (periodic Krasny: Krasny's dimensionless delta); 0 for point
    bool periodic_x = false;
    double period = 0.0; // L when periodic_x, else 0 (the kernels are then given 1.0)
};

struct IntegratorConfig {
    Integrator kind = Integrator::Rk4;
    double dt = 0.0;
    int64_t steps = 0;
};

struct EvaluationConfig {
    Method method = Method::Auto; // as configured
    bool tiled = false;           // resolved: auto is tiled on opencl and cuda
    int64_t tile = 128;           // work-group size T of the tiled kernel
};

// The initial state (README "Initial conditions"); only the kind's keys are meaningful.
struct InitialConfig {
    InitialKind kind = InitialKind::Patch;
    std::array<double, 2> center{0.0, 0.0};
    int64_t n = 0; // patch, ring, sheet: the count given
    Shape shape = Shape::Disc;
    double radius = 1.0;
    double side = 2.0;
    double total_circulation = 1.0;
    double circulation_spread = 0.0;
    uint64_t seed = 1;
    int64_t n_side = 0;                           // lattice
    int64_t rings = 0;                            // lamb_oseen
    double core_radius = 1.0;                     // lamb_oseen
    double extent = 3.0;                          // lamb_oseen
    double separation = 1.0;                      // pair, opposite_pair
    std::array<double, 2> circulations{1.0, 1.0}; // pair
    double circulation = 1.0;                     // opposite_pair, ring
    double phase = 0.0;                           // ring
    double perturbation = 0.0;                    // ring
    double amplitude = 0.01;                      // sheet
    std::string path;                             // file: as written in the config
    std::string resolved_path;                    // file: relative to the config's directory
    FileFormat format = FileFormat::Csv;
    int64_t frame = -1; // file, h5md: frame index (negative: from the end)
};

// RunConfig: backend, precision, threads, output, source (the file and its text).
struct VortexConfig : RunConfig {
    PhysicsConfig physics;
    IntegratorConfig integrator;
    EvaluationConfig evaluation;
    InitialConfig initial;
    int64_t vortices = 0; // N of the initial state

    int64_t n() const { return vortices; }
    // The period as the kernels take it (1.0 when not periodic: unused there, but not 0).
    double kernel_period() const { return physics.periodic_x ? physics.period : 1.0; }
};

VortexConfig parse_vortex_config(const ConfigNode &root);
VortexConfig load_vortex_config(const std::string &path);
VortexConfig load_vortex_config_string(std::string text, std::string file_name);

// The resolved configuration, one aspect per line (what `vortex check` prints).
std::string describe(const VortexConfig &config);

const char *to_string(Regularisation r);
const char *to_string(Integrator i);
const char *to_string(InitialKind k);
const char *to_string(Shape s);
int integrator_order(Integrator i);
// Velocity evaluations of one step: 1, 2, 2, 4.
int evaluations_per_step(Integrator i);

// The initial state in double precision, as the README defines it (initial.cpp).
struct InitialState {
    std::vector<double> x, y, gamma;
    int64_t size() const { return int64_t(x.size()); }
};

InitialState make_initial_state(const VortexConfig &config);
// The number of vortices make_initial_state() gives (reads the file of a `file` state).
int64_t initial_count(const VortexConfig &config);

// A file of a `file` initial state that cannot be used; key() is the initial key to change
// ("path" or "frame"), what() says why ("PATH:LINE: ..." for a CSV line).
class InitialFileError : public std::runtime_error {
public:
    InitialFileError(std::string key, const std::string &message)
        : std::runtime_error(message), key_(std::move(key)) {}
    const std::string &key() const { return key_; }

private:
    std::string key_;
};

// The vortices of a CSV file (columns x, y, gamma in any order; README "Initial conditions") or
// of a frame of an H5MD file written by vortex. InitialFileError for bad content.
InitialState read_vortex_csv(const std::string &path);
InitialState read_vortex_h5md(const std::string &path, int64_t frame);

} // namespace smelt::apps::vortex
