// md3d's overlap of the halo refresh with the forces (MPI, GPU backends): the owned particles
// split into interior and boundary by their list rows (common/domain/interior_split.h), and the
// forces launched over the two lists (compute_forces_subset) against one launch over all. One
// process: the first particles of a serial list play the owned ones, the rest the ghosts.
#include "common/domain/device_pack.h"
#include "common/domain/interior_split.h"
#include "common/neighbor_list.h"
#include "md3d/simulation.h"
#include "md3d_test_util.h"

#include "backends/registry.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <sstream>

namespace smelt::apps {
namespace {

using namespace smelt::apps::md3d;
using namespace smelt::apps::test_util;

constexpr int64_t kN = 600;
constexpr double kEdge = 9.0;
constexpr int32_t kMask = 6; // walls along x

// A Kob-Andersen liquid of kN particles between walls along x (periodic y, z) on `backend` with
// full lists of `lanes` lanes.
Md3dConfig liquid(const std::string &backend, int lanes) {
    std::ostringstream s;
    s << "backend: " << backend << "\nsystem:\n  lattice: sc\n  n: " << kN
      << "\n  lattice_constant: 0.5\n  box: [" << kEdge << ", " << kEdge << ", " << kEdge
      << "]\n  boundary: [walls, periodic, periodic]\n  walls: {stiffness: 50.0, range: 0.5}"
      << "\n  types: [A, B]\n  counts: [300, 300]\n  temperature: 0\n"
      << "potential:\n  shift: true\n"
      << kKobAndersenPairs << "integrator: {dt: 0.005, steps: 10}\n"
      << "neighbor: {newton: false" << (backend == "cpu" ? "" : ", lanes: " + std::to_string(lanes))
      << "}\noutput: {h5md: false, csv: false, progress: false, checkpoint: false}\n";
    return md3d_config(s.str());
}

// A random state with the particles in increasing x: the first ones fill a slab x < x_k, as a
// rank's owned particles do, and the rest stand beyond its face, as its ghosts do.
HostState sorted_by_x() {
    HostState s = random_state(kN, {kEdge, kEdge, kEdge}, kMask, 2, 0.85, 17);
    std::vector<size_t> order(static_cast<size_t>(kN));
    std::iota(order.begin(), order.end(), size_t(0));
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return s.position[0][a] < s.position[0][b]; });
    HostState out = s;
    for (size_t k = 0; k < order.size(); ++k) {
        for (size_t a = 0; a < 3; ++a) {
            out.position[a][k] = s.position[a][order[k]];
            out.velocity[a][k] = s.velocity[a][order[k]];
            out.image[a][k] = s.image[a][order[k]];
        }
        out.species[k] = s.species[order[k]];
    }
    return out;
}

// The first `owned` particles of the serial run on `backend` as a rank's owned ones: the
// split against a loop over the list's rows, and the forces of compute_forces_subset over the
// interior, then the boundary, against compute_forces over all: bit for bit.
void expect_split_keeps_the_bits(const std::string &backend, int lanes, int64_t owned) {
    const Md3dConfig c = liquid(backend, lanes);
    Simulation sim(c, md3d_physics());
    sim.set_state(sorted_by_x());
    const NeighborList &nl = sim.neighbors();
    ASSERT_EQ(nl.spec().lanes, lanes);
    ASSERT_FALSE(nl.spec().half);
    smelt::Options options = engine_options(c);
    const smelt::Program halo =
        smelt::Program::from_file(domain::halo_kernel_file(md3d_physics().name()));
    domain::InteriorSplit split(halo, options);
    split.build(nl, owned);

    // The oracle: a row is boundary when any of its lanes' entries is >= owned.
    const auto start = nl.start().to_vector<int32_t>(), count = nl.count().to_vector<int32_t>(),
               idx = nl.indices().to_vector<int32_t>();
    std::vector<int32_t> interior, boundary;
    for (int64_t i = 0; i < owned; ++i) {
        bool ghost = false;
        for (int l = 0; l < lanes; ++l)
            for (int32_t s = 0; s < count[size_t(i * lanes + l)]; ++s) {
                const size_t p =
                    size_t(start[size_t(i)]) + size_t(l + int64_t(lanes) * s) * size_t(nl.stride());
                ghost = ghost || idx[p] >= owned;
            }
        (ghost ? boundary : interior).push_back(int32_t(i));
    }
    ASSERT_FALSE(interior.empty());
    ASSERT_FALSE(boundary.empty());
    ASSERT_EQ(split.interior_count(), int64_t(interior.size()));
    ASSERT_EQ(split.boundary_count(), int64_t(boundary.size()));
    auto head = [](const smelt::Array &a, size_t n) {
        std::vector<int32_t> v = a.to_vector<int32_t>();
        v.resize(n);
        return v;
    };
    EXPECT_EQ(head(split.interior(), interior.size()), interior);
    EXPECT_EQ(head(split.boundary(), boundary.size()), boundary);

    std::vector<double> eps, sig, rc2;
    for (const auto &p : c.potential.pairs) {
        eps.push_back(p.epsilon);
        sig.push_back(p.sigma);
        rc2.push_back(p.r_cut * p.r_cut);
    }
    smelt::Backend *b = &backend_of(options);
    auto eps_t = smelt::Array::from_vector(eps, b), sig_t = smelt::Array::from_vector(sig, b),
         rc2_t = smelt::Array::from_vector(rc2, b), eshift_t = smelt::zeros(4, DType::Float64, b);
    smelt::Elementwise table(md3d_physics(), "pair_shift_table", options);
    table({eps_t, sig_t, rc2_t, eshift_t, int32_t(1)});
    // Outputs of lanes * owned entries (each lane's part), NaN first: the subset launches
    // must write every one of them.
    const auto parts = size_t(lanes * owned);
    auto run = [&](bool subsets) {
        std::vector<smelt::Array> r;
        for (int k = 0; k < 5; ++k)
            r.push_back(smelt::Array::from_vector(std::vector<double>(parts, std::nan("")), b));
        std::vector<smelt::Arg> args =
            pair_force_args(sim, nl, r, kEdge, kMask, {eps_t, sig_t, rc2_t, eshift_t});
        args.insert(args.end(),
                    {int32_t(lanes), int32_t(1), smelt::zeros(1, smelt::DType::Int32, b)});
        if (!subsets) {
            smelt::Elementwise all(md3d_physics(), "compute_forces", options);
            all(int64_t(parts), args);
        } else {
            smelt::Elementwise some(md3d_physics(), "compute_forces_subset", options);
            args.insert(args.begin(), split.interior());
            some(lanes * split.interior_count(), args);
            args[0] = split.boundary();
            some(lanes * split.boundary_count(), args);
        }
        std::vector<std::vector<double>> out;
        for (const auto &a : r)
            out.push_back(a.to_vector<double>());
        return out;
    };
    const auto whole = run(false), split_run = run(true);
    for (size_t k = 0; k < 5; ++k) {
        SCOPED_TRACE("output " + std::to_string(k));
        ASSERT_EQ(whole[k].size(), split_run[k].size());
        // Bits, not values: memcmp sees -0.0 against 0.0 and NaN payloads.
        EXPECT_EQ(std::memcmp(whole[k].data(), split_run[k].data(), parts * sizeof(double)), 0);
        EXPECT_EQ(std::count_if(split_run[k].begin(), split_run[k].end(),
                                [](double v) { return std::isnan(v); }),
                  0);
    }
}

TEST(Md3dOverlap, SplitByGhostsKeepsEveryForceBit) {
    expect_split_keeps_the_bits("cpu", 1, 400);
}

// The GPU form with several lanes per particle, on OpenCL (PoCL in CI).
TEST(OpenCLMd3dOverlap, SplitByGhostsKeepsEveryForceBitWithLanes) {
    if (!opencl_available()) GTEST_SKIP() << "no OpenCL device on this machine";
    expect_split_keeps_the_bits("opencl", 2, 400);
}

} // namespace
} // namespace smelt::apps
