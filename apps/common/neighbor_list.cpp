#include "common/neighbor_list.h"

#include "backends/registry.h"
#include "common/run_config.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

namespace smelt::apps {

struct NeighborList::State {
    NeighborListSpec spec;
    int64_t n = 0;
    int64_t rows = -1; // set_rows(); -1: every particle
    smelt::Backend *backend = nullptr;

    // Binned search.
    std::optional<Elementwise> cell_key, clear_cells, find_bounds, count, fill, sort;
    // One-pass binned build into rows of fixed capacity (when the program has the kernel).
    std::optional<Elementwise> fill_capped, cell_bounds, permute;
    // cell_bounds' bounds in one pass over the sorted keys (cpu backend, when the program has it).
    std::optional<Elementwise> cell_bounds_scan;
    // fill_capped is the GPU form, which takes the entry stride (NeighborList::stride()).
    bool capped_gpu_form = false;
    std::vector<Array> by_cell; // coordinates in cell order (capped build)
    std::optional<Reduction> count_max, count_sum;
    // NeighborListSpec::packed: pack_rows, and the capped rows the fill writes (nbr_idx then
    // holds the packed ones) with the row of each packed entry.
    std::optional<Elementwise> pack;
    Array capped_idx, entry_row;
    int32_t cap = 0; // row capacity of the capped build (rows are cap + 1 apart)
    // All pairs.
    std::optional<Elementwise> count_all_pairs, fill_all_pairs;
    // Both.
    std::optional<Scan> offsets;
    std::optional<Reduction> displacement2;
    std::optional<Reduction> stale_test; // 'max(a, b)' of past_limit_map, when the program has it
    std::optional<Elementwise> save_positions;
    // start_update(): the list's stale flag on the device (int32, zeroed at every build), and
    // on its way to the host, through the Reduction's pending value or, after start_flag_read(),
    // through flag_stage.
    Array stale_flag;
    PendingValue pending_test;
    std::unique_ptr<HostStage> flag_stage;
    bool flag_read = false;

    Array keys, order, identity, cell_start, cell_end;
    Array nbr_count, nbr_start, nbr_idx, nbr_total;
    std::vector<Array> saved; // positions at the last build (Displacement rule)
    int64_t total = 0;        // -1 after a capped build until total() sums the counts
    int64_t builds = 0;
    bool stale = true; // no list yet, or positions replaced since the last build

    // The per-axis scalar arguments, in the kernels' order.
    void push_box(std::vector<Arg> &args) const {
        for (double l : spec.box)
            args.emplace_back(l);
    }
    void push_grid(std::vector<Arg> &args) const {
        for (double w : spec.cell_size)
            args.emplace_back(w);
        for (int c : spec.cells)
            args.emplace_back(int32_t(c));
    }
    int32_t periodic() const { return spec.periodic_value(); }
    // Entry k of particle i's row is at start[i] + k * stride(): n (rows interleaved, entry k
    // of consecutive particles side by side) for the GPU form of the one-pass build, so the
    // threads of a warp reading their k-th neighbours read consecutive words; 1 elsewhere
    // (sort_neighbors and the CPU's chunked loops read rows as runs).
    int32_t stride() const {
        return capped_gpu_form && fill_capped && !spec.sorted ? static_cast<int32_t>(n) : 1;
    }
    double rl2() const { return spec.r_list * spec.r_list; }
    double limit2() const { return 0.25 * spec.skin * spec.skin; }
    // The displacement rule on the test's value, compared in the value's own precision: a kernel
    // given limit2() as a real of that precision decides the same way (float32 in single).
    bool past_limit(double d2, DType real) const {
        if (real == DType::Float32) return static_cast<float>(d2) > static_cast<float>(limit2());
        return d2 > limit2();
    }
    bool past_limit(const Value &v) const { return past_limit(v.as<double>(), v.dtype()); }
    std::vector<Arg> displacement_args(const std::vector<Array> &coords) const {
        std::vector<Arg> a(coords.begin(), coords.end());
        a.insert(a.end(), saved.begin(), saved.end());
        push_box(a);
        a.emplace_back(periodic());
        return a;
    }

    void build_capped(const std::vector<Arg> &coord_args);
    // nbr_start = the exclusive scan of nbr_count (rows packed one after another); returns
    // and keeps (total) the entry count, read back.
    int64_t scan_row_starts();
    void save_positions_of_build(const std::vector<Array> &coords,
                                 const std::vector<Arg> &coord_args);
};

namespace {

void check_spec(const NeighborListSpec &spec, int64_t n) {
    if (spec.box.empty()) throw std::invalid_argument("NeighborList: the box has no axes");
    if (!spec.periodic_axes.empty() && spec.periodic_axes.size() != spec.box.size())
        throw std::invalid_argument("NeighborList: periodic_axes needs one flag per axis");
    if (spec.periodic_arg == NeighborListSpec::PeriodicArg::AxisMask && spec.box.size() > 30)
        throw std::invalid_argument("NeighborList: an axis mask holds at most 30 axes");
    if (spec.periodic_arg == NeighborListSpec::PeriodicArg::Flag)
        for (size_t a = 1; a < spec.box.size(); ++a)
            if (spec.axis_periodic(a) != spec.axis_periodic(0))
                throw std::invalid_argument("NeighborList: a periodic flag cannot describe a box "
                                            "periodic along some axes only; use AxisMask");
    if (n < 0 || n > std::numeric_limits<int32_t>::max())
        throw std::invalid_argument("NeighborList: particle count outside int32 (" +
                                    std::to_string(n) + ")");
    if (!(spec.r_list > 0.0)) throw std::invalid_argument("NeighborList: r_list must be > 0");
    if (spec.lanes < 1 || (spec.lanes & (spec.lanes - 1)) != 0)
        throw std::invalid_argument("NeighborList: lanes must be a power of two");
    if (spec.packed && (spec.search != NeighborSearch::Binned || spec.lanes > 1))
        throw std::invalid_argument("NeighborList: packed rows need a binned list without lanes");
    if (spec.lanes > 1 && (spec.search != NeighborSearch::Binned || spec.sorted || spec.half))
        throw std::invalid_argument("NeighborList: lanes need a binned, unsorted, full list");
    if (spec.search == NeighborSearch::Binned) {
        if (spec.cells.size() != spec.box.size() || spec.cell_size.size() != spec.box.size())
            throw std::invalid_argument("NeighborList: binned search needs cells and cell_size "
                                        "for every axis");
        int64_t total = 1;
        for (size_t a = 0; a < spec.cells.size(); ++a) {
            if (spec.cells[a] < 1 || spec.cell_size[a] < 0.5 * spec.r_list * (1 - 1e-12))
                throw std::invalid_argument("NeighborList: cells must be >= 1 per axis and at "
                                            "least r_list / 2 wide");
            const int reach = spec.cell_reach(a);
            if (spec.axis_periodic(a) && spec.cells[a] < 2 * reach + 1)
                throw std::invalid_argument(
                    reach == 1 ? "NeighborList: a periodic grid needs >= 3 cells per axis"
                               : "NeighborList: a periodic grid of cells narrower than r_list "
                                 "needs >= 5 cells per axis");
            total *= spec.cells[a];
        }
        if (total > std::numeric_limits<int32_t>::max())
            throw std::invalid_argument("NeighborList: too many cells for int32 keys");
    }
}

} // namespace

// The one-pass binned build: fill_capped writes each particle's neighbours into a row of `cap`
// entries (and one spare: rows are cap + 1 apart) and counts them all; when a count passes the
// capacity, the rows are made longer and the pass runs again (the first build runs twice; later
// ones once unless the density grew). `args` holds the coordinate arrays; the cell bounds are
// ready.
void NeighborList::State::build_capped(const std::vector<Arg> &args) {
    State &s = *this;
    // Sized for n particles (resize() may have changed n since the last build).
    if (s.by_cell.empty() || s.by_cell[0].size() < static_cast<size_t>(s.n)) {
        s.by_cell.clear();
        for (const Arg &c : args)
            s.by_cell.emplace_back(c.array().dtype(),
                                   std::max<size_t>(c.array().size(), size_t(s.n)), s.backend);
    }
    for (size_t a = 0; a < args.size(); ++a)
        (*s.permute)({s.order, args[a].array(), s.by_cell[a]});
    const int32_t lanes = s.spec.lanes;
    // The rows the fill writes: the list's own, or the scratch that packing reads.
    Array &rows = s.pack ? s.capped_idx : s.nbr_idx;
    const int64_t n_rows = s.rows < 0 ? s.n : std::min(s.rows, s.n);
    if (n_rows < s.n) {
        // The particles without a row: empty rows at 0 for the count's maximum, the sort and
        // the packing.
        const auto skipped = static_cast<size_t>(s.n - n_rows);
        const size_t word = sizeof(int32_t);
        s.backend->fill_zero(s.nbr_count.buffer(), static_cast<size_t>(n_rows * lanes) * word,
                             skipped * static_cast<size_t>(lanes) * word);
        s.backend->fill_zero(s.nbr_start.buffer(), static_cast<size_t>(n_rows) * word,
                             skipped * word);
    }
    for (;;) {
        const auto entries = static_cast<size_t>(s.n) * (static_cast<size_t>(s.cap) + 1);
        if (rows.size() < entries) rows = Array(DType::Int32, entries, s.backend);
        std::vector<Arg> a = args;
        a.insert(a.end(), s.by_cell.begin(), s.by_cell.end());
        for (const Array &x : {s.nbr_start, s.nbr_count, rows})
            a.emplace_back(x);
        a.emplace_back(s.cap);
        if (s.capped_gpu_form) {
            a.emplace_back(s.stride());
            a.emplace_back(lanes);
        }
        for (const Array &x : {s.order, s.cell_start, s.cell_end})
            a.emplace_back(x);
        s.push_box(a);
        a.emplace_back(s.periodic());
        s.push_grid(a);
        a.emplace_back(s.rl2());
        if (n_rows > 0) (*s.fill_capped)(n_rows * lanes, a);
        // With lanes, the largest count of one lane against a lane's share of the row.
        const int64_t most = (*s.count_max)({s.nbr_count}).as<int64_t>();
        if (most <= s.cap / lanes) break;
        // Room to grow a little, so a slowly densifying system does not run twice every build.
        const int64_t cap = (most + most / 8 + 4) * lanes;
        if ((cap + 1) * s.n > std::numeric_limits<int32_t>::max())
            throw std::runtime_error("NeighborList: the list needs more than 2^31 entries (int32 "
                                     "offsets); lower the density or r_list");
        s.cap = static_cast<int32_t>(cap);
    }
    s.total = -1; // summed when asked for (total()): one read-back less per build
    // The cells are visited one after another; index order makes the force sums independent of
    // the grid.
    if (s.spec.sorted) (*s.sort)({s.nbr_start, s.nbr_count, rows});
    if (!s.pack) return;
    // Packed: the row starts become the exclusive scan of the counts, and the rows move there.
    const int64_t total = s.scan_row_starts();
    // Room to grow a little, so that a slowly densifying system does not reallocate every build.
    const auto need = static_cast<size_t>(std::max<int64_t>(total, 1));
    if (s.nbr_idx.size() < need) {
        s.nbr_idx = Array(DType::Int32, need + need / 8 + 64, s.backend);
        s.entry_row = Array(DType::Int32, need + need / 8 + 64, s.backend);
    }
    (*s.pack)(s.n, {s.nbr_count, s.cap, s.capped_idx, s.nbr_start, s.nbr_idx, s.entry_row});
}

int64_t NeighborList::State::scan_row_starts() {
    (*offsets)({{"nbr_count", nbr_count}, {"nbr_start", nbr_start}, {"nbr_total", nbr_total}});
    const int64_t entries = nbr_total.to_vector<int32_t>()[0];
    if (entries < 0)
        throw std::runtime_error("NeighborList: the list has more than 2^31 entries (int32 "
                                 "offsets); lower the density or r_list");
    total = entries;
    return entries;
}

// Remembers the positions of this build (Displacement rule).
void NeighborList::State::save_positions_of_build(const std::vector<Array> &coords,
                                                  const std::vector<Arg> &args) {
    State &s = *this;
    if (s.spec.rebuild != RebuildPolicy::Displacement) return;
    if (s.saved.empty())
        for (const Array &c : coords)
            s.saved.emplace_back(c.dtype(), c.size(), s.backend);
    std::vector<Arg> a = args;
    a.insert(a.end(), s.saved.begin(), s.saved.end());
    (*s.save_positions)(a);
    if (!s.stale_flag.is_null()) s.backend->fill_zero(s.stale_flag.buffer(), 0, sizeof(int32_t));
}

int NeighborListSpec::cell_reach(size_t axis) const {
    // cells.py's cell_reach, on the same doubles: w * w >= rl2 * (1 - 2e-12).
    const double w = cell_size.at(axis), rl2 = r_list * r_list;
    return w * w >= rl2 * (1.0 - 2e-12) ? 1 : 2;
}

int32_t NeighborListSpec::periodic_value() const {
    if (periodic_arg == PeriodicArg::Flag) return axis_periodic(0) ? 1 : 0;
    int32_t mask = 0;
    for (size_t a = 0; a < box.size(); ++a)
        if (axis_periodic(a)) mask |= int32_t(1) << a;
    return mask;
}

NeighborList::NeighborList(const Program &program, const Options &options, NeighborListSpec spec,
                           int64_t n, NeighborKernels k)
    : s_(std::make_unique<State>()) {
    check_spec(spec, n);
    State &s = *s_;
    s.spec = std::move(spec);
    s.n = n;
    s.backend = &backend_of(options);
    const auto un = static_cast<size_t>(n);

    if (s.spec.search == NeighborSearch::Binned) {
        s.cell_key.emplace(program, k.cell_key, options);
        s.clear_cells.emplace(program, k.clear_cells, options);
        s.find_bounds.emplace(program, k.find_cell_bounds, options);
        s.count.emplace(program, k.count, options);
        s.fill.emplace(program, k.fill, options);
        s.sort.emplace(program, k.sort, options);
        // The one-pass build in the form that suits the backend and the grid, when the program
        // has it: cells narrower than r_list take the *_small_cells forms.
        bool small = false;
        for (size_t a = 0; a < s.spec.cells.size(); ++a)
            small = small || s.spec.cell_reach(a) > 1;
        const std::string &gpu_kernel = small ? k.fill_capped_gpu_small : k.fill_capped_gpu;
        const bool gpu_form =
            !s.spec.half && s.backend->name() != "cpu" && program.has_function(gpu_kernel);
        const std::string &capped = s.spec.half
                                        ? (small ? k.fill_capped_half_small : k.fill_capped_half)
                                    : gpu_form ? gpu_kernel
                                    : small    ? k.fill_capped_small
                                               : k.fill_capped;
        if (s.spec.half &&
            (s.backend->name() != "cpu" || !program.has_function(capped) ||
             !program.has_function(k.cell_bounds) || !program.has_function(k.permute_real)))
            throw std::invalid_argument("NeighborList: a half list needs the cpu backend and the "
                                        "one-pass kernels (" +
                                        k.fill_capped_half + ", " + k.cell_bounds + ", " +
                                        k.permute_real + ")");
        if (s.spec.lanes > 1 && (!gpu_form || !program.has_function(k.cell_bounds) ||
                                 !program.has_function(k.permute_real)))
            throw std::invalid_argument("NeighborList: lanes need a GPU-family backend and the "
                                        "one-pass kernels (" +
                                        gpu_kernel + ", " + k.cell_bounds + ", " + k.permute_real +
                                        ")");
        const bool one_pass = !capped.empty() && program.has_function(capped) &&
                              program.has_function(k.cell_bounds) &&
                              program.has_function(k.permute_real);
        // count and fill (the two-pass build) search one cell on each side only.
        if (small && !one_pass)
            throw std::invalid_argument("NeighborList: cells narrower than r_list need the "
                                        "one-pass kernels (" +
                                        capped + ", " + k.cell_bounds + ", " + k.permute_real +
                                        ")");
        if (one_pass) {
            s.fill_capped.emplace(program, capped, options);
            s.capped_gpu_form = gpu_form;
            s.cell_bounds.emplace(program, k.cell_bounds, options);
            // On the CPU a pass over the sorted keys: about as many cells as particles take two
            // binary searches each otherwise (scattered reads). GPUs keep one thread per cell.
            if (s.backend->name() == "cpu" && program.has_function(k.cell_bounds_scan))
                s.cell_bounds_scan.emplace(program, k.cell_bounds_scan, options);
            s.permute.emplace(program, k.permute_real, options);
            s.count_max.emplace(&program, "max(a, b)", k.offset_input, DType::Int32, "0", options);
            s.count_sum.emplace(&program, "a+b", k.offset_input, DType::Int64, "0", options);
        }
        if (s.spec.packed) {
            if (!one_pass || gpu_form || !program.has_function(k.pack))
                throw std::invalid_argument("NeighborList: packed rows need the cpu backend and "
                                            "the one-pass kernels with " +
                                            k.pack);
            s.pack.emplace(program, k.pack, options);
        }
        size_t ncells = 1;
        for (int c : s.spec.cells)
            ncells *= static_cast<size_t>(c);
        s.keys = Array(DType::Int32, un, s.backend);
        s.order = Array(DType::Int32, un, s.backend);
        // The values sort_by_key permutes into `order`; copied in before every sort.
        s.identity = arange(n, DType::Int32, s.backend);
        s.cell_start = Array(DType::Int32, ncells, s.backend);
        s.cell_end = Array(DType::Int32, ncells, s.backend);
    } else {
        if (s.spec.half)
            throw std::invalid_argument("NeighborList: a half list needs the binned search");
        s.count_all_pairs.emplace(program, k.count_all_pairs, options);
        s.fill_all_pairs.emplace(program, k.fill_all_pairs, options);
    }
    s.offsets.emplace(program, k.offset_input, k.offset_output, "a+b", DType::Int32, "0", "",
                      options);
    if (s.spec.rebuild == RebuildPolicy::Displacement) {
        s.displacement2.emplace(&program, "max(a, b)", k.displacement2, DType::Float64, "0",
                                options);
        if (program.has_function(k.past_limit)) {
            s.stale_test.emplace(&program, "max(a, b)", k.past_limit, DType::Int32, "0", options);
            s.stale_flag = zeros(1, DType::Int32, s.backend);
        }
        s.save_positions.emplace(program, k.save_positions, options);
    }
    s.nbr_count = Array(DType::Int32, un * size_t(s.spec.lanes), s.backend);
    s.nbr_start = Array(DType::Int32, un, s.backend);
    s.nbr_total = zeros(1, DType::Int32, s.backend);
    s.nbr_idx = Array(DType::Int32, 0, s.backend);
}

NeighborList::~NeighborList() = default;
NeighborList::NeighborList(NeighborList &&) noexcept = default;
NeighborList &NeighborList::operator=(NeighborList &&) noexcept = default;

const Array &NeighborList::cell_order(const std::vector<Array> &coords) {
    State &s = *s_;
    if (s.spec.search != NeighborSearch::Binned)
        throw std::invalid_argument("NeighborList: cell_order needs a binned search");
    if (s.n == 0) return s.order;
    std::vector<Arg> a(coords.begin(), coords.end());
    a.emplace_back(s.keys);
    s.push_grid(a);
    a.emplace_back(s.periodic());
    (*s.cell_key)(a);
    s.backend->copy(s.order.buffer(), 0, s.identity.buffer(), 0, s.order.nbytes());
    // Stable: each cell keeps its particles in index order. The keys are cells, below ncells, so
    // a device sort need only pass over their low bits (two radix passes up to 65 536 cells).
    SortOptions bits;
    while ((size_t(1) << bits.key_bits) < s.cell_start.size())
        ++bits.key_bits;
    sort_by_key(s.keys, &s.order, bits);
    return s.order;
}

void NeighborList::build(const std::vector<Array> &coords) {
    State &s = *s_;
    if (coords.size() != s.spec.box.size())
        throw std::invalid_argument("NeighborList: expected one coordinate array per axis");
    for (const Array &c : coords)
        c.check_size(static_cast<size_t>(s.n), "NeighborList coordinates");
    ++s.builds;
    s.stale = false;
    if (s.n == 0) {
        s.total = 0;
        return;
    }
    const int32_t n32 = static_cast<int32_t>(s.n);
    std::vector<Arg> args(coords.begin(), coords.end());

    if (s.spec.search == NeighborSearch::Binned) {
        (void)cell_order(coords);
        if (s.fill_capped) {
            if (s.cell_bounds_scan)
                (*s.cell_bounds_scan)({s.keys, s.cell_start, s.cell_end, n32,
                                       static_cast<int32_t>(s.cell_start.size())});
            else
                (*s.cell_bounds)({s.cell_start, s.cell_end, s.keys, n32});
            s.build_capped(args);
            s.save_positions_of_build(coords, args);
            return;
        }
        (*s.clear_cells)({s.cell_start, s.cell_end});
        (*s.find_bounds)({s.keys, s.cell_start, s.cell_end, n32});

        std::vector<Arg> a = args;
        for (const Array &x : {s.nbr_count, s.order, s.cell_start, s.cell_end})
            a.emplace_back(x);
        s.push_box(a);
        a.emplace_back(s.periodic());
        s.push_grid(a);
        a.emplace_back(s.rl2());
        (*s.count)(a);
    } else {
        std::vector<Arg> a = args;
        a.emplace_back(s.nbr_count);
        a.emplace_back(n32);
        s.push_box(a);
        a.emplace_back(s.periodic());
        a.emplace_back(s.rl2());
        (*s.count_all_pairs)(a);
    }

    const int64_t total = s.scan_row_starts();
    if (s.nbr_idx.size() < static_cast<size_t>(total)) {
        // Room to grow a little, so a slowly densifying system does not reallocate every build.
        s.nbr_idx = Array(DType::Int32, static_cast<size_t>(total + total / 8 + 64), s.backend);
    }

    if (s.spec.search == NeighborSearch::Binned) {
        std::vector<Arg> a = args;
        for (const Array &x : {s.nbr_start, s.nbr_idx, s.order, s.cell_start, s.cell_end})
            a.emplace_back(x);
        s.push_box(a);
        a.emplace_back(s.periodic());
        s.push_grid(a);
        a.emplace_back(s.rl2());
        (*s.fill)(a);
        // The fill writes cell by cell; index order makes the force sums independent of the grid.
        if (s.spec.sorted) (*s.sort)({s.nbr_start, s.nbr_count, s.nbr_idx});
    } else {
        std::vector<Arg> a = args;
        a.emplace_back(s.nbr_start);
        a.emplace_back(s.nbr_idx);
        a.emplace_back(n32);
        s.push_box(a);
        a.emplace_back(s.periodic());
        a.emplace_back(s.rl2());
        (*s.fill_all_pairs)(a);
    }

    s.save_positions_of_build(coords, args);
}

double NeighborList::max_displacement2(const std::vector<Array> &coords) {
    State &s = *s_;
    if (!s.displacement2 || s.saved.empty() || s.n == 0) return 0.0;
    return (*s.displacement2)(s.displacement_args(coords)).as<double>();
}

bool NeighborList::update(const std::vector<Array> &coords) {
    State &s = *s_;
    s.pending_test = {};
    bool rebuild = s.stale || s.spec.rebuild == RebuildPolicy::EveryStep;
    if (!rebuild && !s.saved.empty() && s.n > 0)
        rebuild = s.past_limit((*s.displacement2)(s.displacement_args(coords)));
    if (rebuild) build(coords);
    return rebuild;
}

bool NeighborList::can_test_ahead() const {
    const State &s = *s_;
    return s.stale_test && !s.stale && s.spec.rebuild == RebuildPolicy::Displacement &&
           !s.saved.empty() && s.n > 0;
}

bool NeighborList::start_update(const std::vector<Array> &coords) {
    State &s = *s_;
    s.pending_test = {};
    s.flag_read = false;
    if (!can_test_ahead()) return false;
    std::vector<Arg> args = s.displacement_args(coords);
    args.emplace_back(s.limit2());
    s.pending_test = s.stale_test->start(args, s.stale_flag);
    return true;
}

void NeighborList::start_flag_read() {
    State &s = *s_;
    if (!can_test_ahead())
        throw std::logic_error("NeighborList::start_flag_read where can_test_ahead() is false");
    s.pending_test = {};
    if (!s.flag_stage) s.flag_stage = s.backend->host_stage(sizeof(int32_t));
    s.flag_stage->start(s.stale_flag.buffer(), 0, sizeof(int32_t));
    s.flag_read = true;
}

bool NeighborList::finish_update(const std::vector<Array> &coords) {
    State &s = *s_;
    int32_t flag = 0;
    if (s.flag_read) {
        std::memcpy(&flag, s.flag_stage->wait(), sizeof flag);
    } else if (!s.pending_test.empty()) {
        flag = s.pending_test.get().as<int32_t>();
    } else {
        throw std::logic_error("NeighborList::finish_update without a started test");
    }
    s.pending_test = {};
    s.flag_read = false;
    const bool rebuild = flag != 0;
    if (rebuild) build(coords);
    return rebuild;
}

const Array &NeighborList::stale_flag() const {
    return s_->stale_flag;
}

double NeighborList::rebuild_limit2() const {
    return s_->limit2();
}

bool NeighborList::past_limit(double d2, DType real) const {
    return s_->past_limit(d2, real);
}

void NeighborList::invalidate() {
    s_->stale = true;
}

namespace {

// `a` as an int32 array of n elements, its memory reused when it holds them (an MPI rank's
// particle count changes at every rebuild); grown with room to spare otherwise.
void fit(Array &a, size_t n, smelt::Backend *backend) {
    if (a.is_null() || a.buffer().bytes < n * sizeof(int32_t)) {
        a = Array(DType::Int32, n + n / 8 + 64, backend);
    }
    a.resize(n);
}

} // namespace

void NeighborList::resize(int64_t n) {
    State &s = *s_;
    s.stale = true;
    s.rows = -1;
    if (n == s.n) return;
    check_spec(s.spec, n);
    const auto un = static_cast<size_t>(n);
    s.n = n;
    if (s.spec.search == NeighborSearch::Binned) {
        fit(s.keys, un, s.backend);
        fit(s.order, un, s.backend);
        // 0, 1, 2, ...: a longer one serves as well (the build copies its first n).
        if (s.identity.size() < un)
            s.identity = arange(int64_t(un + un / 8 + 64), DType::Int32, s.backend);
    }
    fit(s.nbr_count, un * size_t(s.spec.lanes), s.backend);
    fit(s.nbr_start, un, s.backend);
    s.saved.clear();   // the displacement rule's positions, reallocated at the next build
    s.by_cell.clear(); // the capped build's positions in cell order, likewise
}

void NeighborList::set_rows(int64_t rows) {
    if (rows < 0 || rows > s_->n)
        throw std::invalid_argument("NeighborList::set_rows: " + std::to_string(rows) +
                                    " rows for " + std::to_string(s_->n) + " particles");
    s_->rows = rows;
    s_->stale = true;
}

const std::vector<Array> &NeighborList::build_positions() const {
    return s_->saved;
}

int64_t NeighborList::size() const {
    return s_->n;
}

const Array &NeighborList::start() const {
    return s_->nbr_start;
}
const Array &NeighborList::count() const {
    return s_->nbr_count;
}
const Array &NeighborList::indices() const {
    return s_->nbr_idx;
}
const Array &NeighborList::entry_rows() const {
    if (!s_->pack)
        throw std::logic_error("NeighborList::entry_rows needs NeighborListSpec::packed");
    return s_->entry_row;
}
int32_t NeighborList::stride() const {
    return s_->stride();
}
int64_t NeighborList::total() const {
    State &s = *s_;
    if (s.total < 0) s.total = (*s.count_sum)({s.nbr_count}).as<int64_t>();
    return s.total;
}
int64_t NeighborList::builds() const {
    return s_->builds;
}
const NeighborListSpec &NeighborList::spec() const {
    return s_->spec;
}
const Array &NeighborList::order() const {
    return s_->order;
}
const Array &NeighborList::sorted_keys() const {
    return s_->keys;
}
const Array &NeighborList::cell_start() const {
    return s_->cell_start;
}
const Array &NeighborList::cell_end() const {
    return s_->cell_end;
}

} // namespace smelt::apps
