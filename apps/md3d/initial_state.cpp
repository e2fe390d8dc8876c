#include "md3d/initial_state.h"

#include "common/h5md_reader.h"
#include "md3d/host_physics.h"

#include <random>
#include <stdexcept>

namespace smelt::apps::md3d {

namespace {

// Another stream than the lattice's (seed) and the velocities' (seed ^ 0x9E37...).
constexpr uint64_t kShuffleStream = 0xD1B54A32D192ED03ull;

void velocities_for(const Md3dConfig &c, HostState &s) {
    const auto masses = particle_masses(c, s.species);
    const int64_t dof = degrees_of_freedom(c.n(), c.periodic_mask(), c.integrator.kind);
    auto v = make_velocities(3, masses, *c.system.temperature, dof, c.system.seed);
    for (size_t a = 0; a < 3; ++a)
        s.velocity[a] = std::move(v[a]);
}

HostState from_lattice(const Md3dConfig &c) {
    HostState s;
    Positions p;
    try {
        p = make_positions(c.system.lattice);
    } catch (const LatticeError &e) {
        fail_at_path(c.source, "system." + (e.key() == "spacing" ? "lattice_constant" : e.key()),
                     e.what());
    }
    s.position = {std::move(p.x), std::move(p.y), std::move(p.z)};
    for (auto &img : s.image)
        img.assign(size_t(c.n()), 0);
    s.species = assign_types(c.system.counts, c.system.seed);
    velocities_for(c, s);
    return s;
}

HostState from_file(const Md3dConfig &c) {
    const FromFileConfig &f = *c.system.from_file;
    const H5mdFrame frame = read_h5md_frame(f.path, f.frame_index);
    if (frame.n != c.n())
        throw std::runtime_error(f.path + ": the file changed since the config was read");
    auto vector_field = [&](const char *name) -> const Field * {
        const Field *field = frame.data.find(name);
        if (field && field->components() != 3)
            throw std::runtime_error(f.path + ": /particles/all/" + name + " has not 3 components");
        return field;
    };
    HostState s;
    const Field *pos = vector_field("position");
    for (size_t a = 0; a < 3; ++a)
        s.position[a] = pos->real[a];
    const Field *img = vector_field("image");
    for (size_t a = 0; a < 3; ++a) {
        s.image[a].assign(size_t(c.n()), 0);
        if (img)
            for (size_t i = 0; i < size_t(c.n()); ++i)
                s.image[a][i] = int32_t(img->integer[a][i]);
    }
    s.species.assign(size_t(c.n()), 0);
    if (const Field *sp = frame.data.find("species"))
        for (size_t i = 0; i < size_t(c.n()); ++i)
            s.species[i] = int32_t(sp->integer[0][i]);
    if (c.system.temperature) {
        velocities_for(c, s);
    } else {
        const Field *vel = vector_field("velocity");
        for (size_t a = 0; a < 3; ++a)
            s.velocity[a] =
                vel->is_integer() ? std::vector<double>(size_t(c.n()), 0.0) : vel->real[a];
    }
    if (f.continue_run) {
        s.step = frame.data.step;
        s.time = frame.data.time;
        s.heat = read_h5md_observable(f.path, "thermostat_heat", s.step).value_or(0.0);
    }
    return s;
}

} // namespace

std::vector<int32_t> assign_types(const std::vector<int64_t> &counts, uint64_t seed) {
    std::vector<int32_t> species;
    for (size_t a = 0; a < counts.size(); ++a)
        species.insert(species.end(), size_t(counts[a]), int32_t(a));
    if (counts.size() < 2) return species;
    std::mt19937_64 rng(seed ^ kShuffleStream);
    for (size_t i = species.size(); i-- > 1;)
        std::swap(species[i], species[size_t(rng() % (i + 1))]);
    return species;
}

std::vector<double> particle_masses(const Md3dConfig &c, const std::vector<int32_t> &species) {
    std::vector<double> m(species.size());
    for (size_t i = 0; i < species.size(); ++i)
        m[i] = c.system.masses[size_t(species[i])];
    return m;
}

HostState make_initial_state(const Md3dConfig &c) {
    return c.system.from_file ? from_file(c) : from_lattice(c);
}

} // namespace smelt::apps::md3d
