// Smelt's C++ API: the one header applications include.
//
//     smelt::Program prog = smelt::Program::from_file("axpb.py");
//     smelt::Elementwise axpb(prog, "axpb");
//     smelt::Array x = smelt::linspace(0, 1, n), y = smelt::zeros(n);
//     axpb({x, y, 2.0, 1.0});                 // axpb(i, x, y, a, b) for i in [0, n)
//
// Kernels are Python functions in the restricted language of docs/LANGUAGE.md. A Program is a
// kernel file, parsed once. A primitive (Elementwise, Reduction, Scan, Kernel) names functions of
// it and compiles them when first called: parameters the source leaves unannotated take their types
// from the call's arguments (an Array of dtype D gives a pointer to D; a double gives `double`, an
// int64_t `long`, an int32_t `int`, ...), and each distinct argument-type list is compiled once
// (per primitive object in memory, and across processes through the disk cache).
//
// Multi-dimensional arrays: smelt::shaped(a, {rows, cols}) (or Arg(a, {rows, cols})) passes `a`
// as a row-major array of that shape (the extents' product must be a.size(), else UsageError).
// An unannotated parameter given a shaped array of rank >= 2 is a global matrix of that shape:
// the kernel indexes it x[i, j] (x[i, j, k], ...) and reads x.shape[k] and len(x) as constants;
// each shape is its own specialisation (docs/LANGUAGE.md, "Multi-dimensional arrays"). A call
// without n runs for i < len() of its first array: a shaped array's first extent.
//
// Argument rules, for every primitive:
//   - An Array given to a parameter annotated with a pointer type must have exactly that element
//     type; otherwise UsageError naming the parameter and both types. A shaped array given to such
//     a parameter is its flat elements (Compyle's meaning); only unannotated parameters take the
//     shape. In single precision
//     (Options::precision) `double` parameters compile as `float`, so such parameters need
//     float32 arrays, and unannotated parameters given float64 arrays are an error too.
//   - A scalar given to an annotated scalar parameter is converted to the declared type (as C
//     converts); a scalar for a pointer parameter, or an Array for a scalar one, is a UsageError.
//   - Wrong argument counts, unknown names and arrays of another backend are UsageErrors.
//
// External functions: C / C++ / CUDA / OpenCL C functions from headers, libraries or source
// text, callable from kernels with a declared signature (ProgramOptions::externals), compiled
// with Options::includes, libs and extra_flags.
//
// Errors: CompileError (mistakes in kernel source, each located file:line:col), BackendError (the
// toolchain failed: carries the compiler log and the path of the kept source), UsageError (a
// mistake in the call). All derive from smelt::Error.
#pragma once

#include "array/array.h"
#include "array/array_ops.h"
#include "array/dtype.h"
#include "pipeline.h"
#include "primitives/loop_par.h"
#include "primitives/profile.h"
#include "primitives/radix_sort.h"
#include "support/error.h"

#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

namespace smelt {

namespace primitives {
struct ProgramData;
struct ElementwiseState;
struct ReductionState;
struct PendingSlot;
struct ScanState;
struct KernelState;
struct LoopFunctionState;
} // namespace primitives

struct Options {
    std::string backend; // "cpu", "cpu:serial", ...; "" → $SMELT_BACKEND → "cpu"
    Precision precision = Precision::Double;
    // On the CPU backend, > 0 sets its thread count when the primitive is made, exactly as
    // set_cpu_threads(threads) does: process-wide, for every CPU primitive. 0 leaves the count as
    // it is; other backends ignore it. UsageError when negative.
    int threads = 0;
    // Let the backend's compiler contract a*b + c into fused multiply-adds and use fast math
    // (-ffast-math, -cl-fast-relaxed-math, --use_fast_math): faster, but results then differ
    // from CPython's in the last bits (or more), and NaN/Inf may not be honoured. Off by default:
    // every operation rounds once, as in CPython. SMELT_FAST_MATH=1 in the environment turns it
    // on for every primitive. Part of the cache key.
    bool fast_math = false;
    // Bounds-checked mode (Elementwise, Reduction with a map, Scan, Kernel): the generated code
    // checks every index into an array (parameters, local pointers and matrices, LOCAL_MEM and
    // LocalMem memory, atomics), in the kernel and in every function it calls; an index out of
    // range makes the call throw a UsageError naming file.py:LINE of the access, the array, the
    // index and its length, after the launch (the bad access itself is replaced by one of
    // element 0). Slower; for finding bugs. SMELT_BOUNDS_CHECK=1 turns it on for every
    // primitive. Part of the cache key (the generated source differs). docs/LANGUAGE.md,
    // "Checked runs", lists what is checked.
    bool bounds_check = false;
    // Finite-checked mode (the same primitives): every float value stored into an array, and
    // the value a Reduction's map or a Scan's input returns, is checked; the first NaN or
    // infinity makes the call throw a UsageError naming file.py:LINE, the array and the index
    // (or the item), after the launch: where a simulation first goes non-finite.
    // SMELT_CHECK_FINITE=1 turns it on for every primitive. Part of the cache key.
    // (Under fast_math the check may be optimised away.)
    bool check_finite = false;
    // For external functions (ProgramOptions::externals). All three are part of the cache key.
    // Directories searched for the headers externals name: -I for the system compiler (cpu)
    // and in OpenCL build options, --include-path for NVRTC. Relative paths are taken from the
    // current directory when the primitive compiles. The contents of every header the
    // generated code includes with quotes and that is found here go into the cache key, so
    // editing such a header recompiles (headers those headers include are not followed).
    std::vector<std::string> includes;
    // CPU backend only (UsageError on opencl and cuda, whose device code links no host
    // libraries): what to link, after the kernel's object: an existing directory becomes
    // -L<dir> and -Wl,-rpath,<dir>; "-l...", "-L..." and "-Wl,..." are passed as written; a
    // path to a file (libx.so, libx.a) is linked as it is; any other word w becomes -lw.
    // With libraries, the shared object is linked with -Wl,--no-undefined, so a function no
    // library defines fails the build (BackendError with the linker's message) rather than
    // the load.
    std::vector<std::string> libs;
    // Passed unchanged to the system compiler (cpu), appended to the OpenCL build options, or
    // given to NVRTC (cuda).
    std::vector<std::string> extra_flags;
};

// The CPU backend's thread count. It belongs to the backend, which is one object per process
// shared by every primitive (as OpenMP's own setting is): Elementwise, Reduction, Scan and the
// sorts on "cpu" all use it. Reductions and scans split their range into one chunk per thread,
// so their results are reproducible for a given count. Default: $SMELT_NUM_THREADS, else the
// first entry of $OMP_NUM_THREADS, else the number of hardware threads.
int cpu_threads();
// Sets that count (n >= 1), or back to the default (n = 0). UsageError when n < 0. Apps call it
// once at start-up (or give Options::threads); "cpu:serial" always runs on one thread.
void set_cpu_threads(int n);

// How a Program is made.
struct ProgramOptions {
    // Directories searched for the kernel files a program imports (`from box import f` reads
    // box.py), after the importing file's own directory and before $SMELT_KERNEL_PATH
    // (docs/LANGUAGE.md, "Kernel libraries").
    std::vector<std::string> kernel_path;
    // Module constants of the program's file set to these values, as if the file said
    // NAME = value: compile-time numbers (loop bounds, matrix extents, cutoffs) chosen at run
    // time, as the Python package's specialize does. {"N", 3} is an int, {"RC", 2.5} a float.
    // A constant the file imports from a kernel library is set in this file only (the
    // library's functions keep theirs). UsageError for a name that is not a module constant
    // of the file.
    std::map<std::string, ConstantValue> constants;
    // Functions defined outside the kernel language that every kernel of the program may
    // call, by External::name, with the signature declared there (frontend/external.h;
    // docs/LANGUAGE.md, "External functions"):
    //
    //     smelt::External cube{.name = "my_cube", .params = {"double"}, .result = "double",
    //                          .header = "my_cube.h"};
    //     Program p = Program::from_file("k.py", {.externals = {cube}});
    //     Elementwise e(p, "f", {.includes = {"/path/to/headers"}});
    //
    // A header is #included at the top of the generated code (found through
    // Options::includes); `code` is pasted there instead or as well. On cuda the function must
    // be a __device__ function; on opencl pointers are __global. UsageError for a declaration
    // that cannot be used (see lower/externals.h).
    std::vector<External> externals;
};

// A kernel file (or text), parsed once, with the kernel files it imports. Cheap to copy: copies
// share the parsed modules.
class Program {
public:
    // UsageError when the file cannot be read; CompileError when it or a kernel file it imports
    // is not readable Python at module level, or when it imports a name that an imported kernel
    // file does not define (errors inside functions are reported when a function is compiled or
    // checked).
    static Program from_file(const std::string &path, const ProgramOptions &options = {});
    // `line_offset`: lines before `text` in the file it was taken from (inspect.getsource).
    // `name` is a path when the text is (a version of) a file: its directory is searched first
    // for imported kernel files; a name starting with '<' ("<string>") has no directory.
    static Program from_source(std::string name, std::string text, int line_offset = 0);
    static Program from_source(std::string name, std::string text, const ProgramOptions &options,
                               int line_offset = 0);

    // Every diagnostic of the named functions (all annotated functions when empty); empty when
    // clean. Functions with parameters typed only at the call are checked for syntax only.
    std::vector<Diagnostic> check(const std::vector<std::string> &funcs = {},
                                  Precision precision = Precision::Double) const;

    const std::string &name() const;                 // the file name given
    std::vector<std::string> function_names() const; // every def of the file, in file order
    // True for the file's own functions and those it imports from kernel files.
    bool has_function(const std::string &name) const;
    // The names of the kernel files the program imports (transitively), in the order found.
    std::vector<std::string> imported_files() const;

    // Engine internals (the parsed module); not part of the stable API.
    const primitives::ProgramData &data() const { return *data_; }

private:
    explicit Program(std::shared_ptr<const primitives::ProgramData> data);
    std::shared_ptr<const primitives::ProgramData> data_;
};

// One argument of a kernel call: an Array (by handle: the call sees the array's data) or a scalar.
// C++ arithmetic types map to kernel types by size and signedness: bool → bool, int32_t → int,
// int64_t → long, uint32_t → uint, uint64_t → ulong, float → float, double → double (8- and
// 16-bit integers → char/short and their unsigned forms).
class Arg {
public:
    Arg(const Array &a);
    // A shaped array: `a`'s elements seen as a row-major array of extents `shape` (their product
    // must be a.size(), else UsageError). Of rank >= 2 it gives an unannotated parameter the
    // type of a global matrix of that shape, indexed x[i, j] in the kernel (see the header
    // comment); of rank 1 it is the plain array.
    Arg(const Array &a, std::vector<int64_t> shape);
    template <class T>
    requires std::is_arithmetic_v<T> Arg(T v) {
        if constexpr (std::is_same_v<T, bool>) {
            set_int(Scalar::Bool, v ? 1 : 0);
        } else if constexpr (std::is_floating_point_v<T>) {
            set_float(sizeof(T) == 4 ? Scalar::F32 : Scalar::F64, static_cast<double>(v));
        } else if constexpr (std::is_signed_v<T>) {
            constexpr Scalar s = sizeof(T) == 1   ? Scalar::I8
                                 : sizeof(T) == 2 ? Scalar::I16
                                 : sizeof(T) == 4 ? Scalar::I32
                                                  : Scalar::I64;
            set_int(s, static_cast<int64_t>(v));
        } else {
            constexpr Scalar s = sizeof(T) == 1   ? Scalar::U8
                                 : sizeof(T) == 2 ? Scalar::U16
                                 : sizeof(T) == 4 ? Scalar::U32
                                                  : Scalar::U64;
            set_uint(s, static_cast<uint64_t>(v));
        }
    }

    bool is_array() const { return is_array_; }
    const Array &array() const { return array_; } // null unless is_array()
    // An array's extents: the shape it was given, else {size()}. Empty for a scalar.
    std::vector<int64_t> shape() const {
        if (!shape_.empty() || !is_array_) return shape_;
        return {static_cast<int64_t>(array_.size())};
    }
    // The number of extents: 0 for a scalar, 1 for an unshaped array.
    size_t rank() const { return !is_array_ ? 0 : shape_.empty() ? 1 : shape_.size(); }
    // An array's len(): its first extent (its size when unshaped). 0 for a scalar.
    int64_t length() const {
        if (!is_array_) return 0;
        return shape_.empty() ? static_cast<int64_t>(array_.size()) : shape_[0];
    }
    // The kernel type this argument gives an unannotated parameter: pointer to the array's
    // element type (a global matrix of its shape when shaped with rank >= 2), or the scalar's
    // type.
    Type type() const;
    // The scalar's bytes converted (as C converts) to `to`, into `out` (at most 8 bytes).
    void convert_scalar(Scalar to, void *out) const;

private:
    void set_int(Scalar s, int64_t v);
    void set_uint(Scalar s, uint64_t v);
    void set_float(Scalar s, double v);

    Array array_;
    bool is_array_ = false;
    std::vector<int64_t> shape_; // only for Arg(a, shape): unshaped arrays allocate nothing
    Scalar scalar_ = Scalar::I32;
    union {
        int64_t i;
        uint64_t u;
        double f;
    } v_{};
};

// `a` as a shaped argument (Arg(a, shape)): shaped(x, {rows, cols}) reads better in a call's
// argument list than a nested brace.
inline Arg shaped(const Array &a, std::vector<int64_t> shape) {
    return Arg(a, std::move(shape));
}

// Arguments by parameter name, in any order: {{"x", x}, {"a", 2.0}}, or built up in a vector
// (NamedArgs(v)). Its own type rather than a std::map, so that a name given twice is reported
// rather than dropped, and rather than a std::vector or std::map, which would make positional
// calls with braced lists (r({1.0}), k({x, y})) ambiguous.
template <class A> class Named {
public:
    using Entry = std::pair<std::string, A>;
    Named(std::initializer_list<Entry> entries) : entries_(entries) {}
    explicit Named(std::vector<Entry> entries) : entries_(std::move(entries)) {}
    const std::vector<Entry> &entries() const { return entries_; }

private:
    std::vector<Entry> entries_;
};
using NamedArgs = Named<Arg>;

// A scalar result with its dtype. as<T>() converts the value to T as C converts (exact when T is
// the dtype's own type).
class Value {
public:
    Value() = default;
    Value(DType dtype, const void *bytes); // copies dtype_size(dtype) bytes

    DType dtype() const { return dtype_; }
    template <class T> T as() const {
        return visit_dtype(dtype_, [&]<class S>() {
            S s;
            std::memcpy(&s, bytes_, sizeof(S));
            return static_cast<T>(s);
        });
    }

private:
    DType dtype_ = DType::Float64;
    alignas(8) unsigned char bytes_[8] = {};
};

// f(i, args...) for every i in [0, n) in parallel (Compyle's Elementwise). The first parameter of
// `func` is the index (unannotated: long); the call gives the others, in order.
class Elementwise {
public:
    Elementwise(const Program &program, const std::string &func, Options options = {});
    ~Elementwise();
    Elementwise(Elementwise &&) noexcept;
    Elementwise &operator=(Elementwise &&) noexcept;

    // n = len() of the first Array argument: its size, or a shaped array's first extent
    // (UsageError when there is none).
    void operator()(const std::vector<Arg> &args);
    void operator()(int64_t n, const std::vector<Arg> &args);
    // By name: every parameter after the index exactly once (UsageError naming unknown, missing
    // and repeated names). n < 0: the length of the first Array in parameter order.
    void operator()(const NamedArgs &named, int64_t n = -1);
    // The whole translation unit of the last specialisation ("" before the first call).
    const std::string &source() const;

private:
    std::unique_ptr<primitives::ElementwiseState> s_;
};

// A Reduction's value on its way to the host (Reduction::start). get() waits for the copy, not
// for device work queued after start(); a PendingValue is valid until its Reduction's next
// start() (UsageError after that) and may outlive the Reduction.
class PendingValue {
public:
    PendingValue() = default;
    Value get() const;
    bool empty() const { return slot_ == nullptr; }

private:
    friend class Reduction;
    std::shared_ptr<primitives::PendingSlot> slot_;
    uint64_t generation_ = 0;
};

// reduce_expr over map(i, ...) for i in [0, n) (Compyle's Reduction).
//
//   - reduce_expr: a Python expression in `a` and `b` ("a+b", "min(a, b)", "max(a, b)", any
//     associative expression of the kernel language); a and b have type dtype_out. Mistakes in it
//     are CompileErrors located in the file "<reduce_expr>".
//   - map_func: "" → the call gives one Array and its elements (converted to dtype_out) are
//     reduced; else a function m(i, ...) of `program` whose result (converted to dtype_out) is
//     reduced, and the call gives m's parameters after i, n being the len() of the first Array
//     (a shaped array's first extent).
//   - neutral: a Python expression ("0", "-inf", "INFINITY"): the result for n = 0.
//   - In single precision a Float64 dtype_out becomes Float32.
//
// Deterministic: the range is split statically into one contiguous chunk per thread, each chunk
// is reduced in index order starting from its first element, and the chunk results are combined
// in chunk order. The same inputs and thread count give the same bits on every run.
class Reduction {
public:
    Reduction(const Program *program, std::string reduce_expr = "a+b", std::string map_func = "",
              DType dtype_out = DType::Float64, std::string neutral = "0", Options options = {});
    ~Reduction();
    Reduction(Reduction &&) noexcept;
    Reduction &operator=(Reduction &&) noexcept;

    Value operator()(const std::vector<Arg> &args);
    // By name: the map function's parameters after the index, each exactly once (UsageError
    // naming unknown, missing and repeated names; and without a map_func, whose one array has no
    // name).
    Value operator()(const NamedArgs &named);
    // The reduction queued without waiting for it: its value goes to result[0] on the device
    // (an Array of dtype_out, after the precision switch, on this Reduction's backend), where
    // kernels queued after this call can read it, and a copy travels to the host behind the
    // queued work. PendingValue::get() waits for that copy only, so the device can run work
    // queued in between while the host waits (on the CPU the value is ready at once).
    PendingValue start(const std::vector<Arg> &args, const Array &result);
    const std::string &source() const;

private:
    std::unique_ptr<primitives::ReductionState> s_;
};

// A parallel prefix scan (Compyle's Scan):
//
//   input(i, ...)     the value at i, converted to `dtype`
//   segment(i, ...)   optional; true where a new segment starts (the scan restarts there)
//   output(i, item, prev_item, last_item, ...)   called once per i, in parallel, with
//       item       the inclusive scan at i: input(i) combined with everything before it in its
//                  segment (at a segment start, and at i = 0, item = input(i));
//       prev_item  the exclusive scan at i: the item of i-1, or `neutral` at a segment start
//                  (and at i = 0);
//       last_item  the inclusive scan at the last element n-1 (for a segmented scan: the total
//                  of the final segment).
//   Any of item/prev_item/last_item (and N, the item count, and i) may be left out of a
//   function's parameters; unannotated they take `dtype` (N and i: long).
//
// scan_expr and neutral are Python expressions as for Reduction. input may be evaluated twice for
// an i, but never after output(i) ran, so output may overwrite input's array at i. The combine is
// only ever applied in index order, so it need be associative, not commutative.
// Algorithm: on the CPU (and OpenCL) a two-pass blocked scan (per-chunk totals, carries combined
// in order, rescan with the carry calling output), deterministic for a given thread count. On
// CUDA a single pass with decoupled look-back (input read once) when output does not take
// last_item, else reduce-then-scan in three kernels (deterministic). The look-back folds
// whatever its predecessor tiles have published by then (aggregates or inclusive prefixes), so
// a floating-point sum may differ in its last bits between runs, as CUB's does; integer results
// and exact combines (min, max, sums of exactly representable values) are the same every run.
class Scan {
public:
    Scan(const Program &program, std::string input_func, std::string output_func,
         std::string scan_expr = "a+b", DType dtype = DType::Float64, std::string neutral = "0",
         std::string segment_func = "", Options options = {});
    ~Scan();
    Scan(Scan &&) noexcept;
    Scan &operator=(Scan &&) noexcept;

    // Every parameter of input/output/segment other than i, item, prev_item, last_item and N,
    // by name (a name shared by several functions is one argument). n < 0: the length of the
    // first Array argument of the input function.
    void operator()(const std::map<std::string, Arg> &named, int64_t n = -1);
    const std::string &source() const;

private:
    std::unique_ptr<primitives::ScanState> s_;
};

// Local memory for one launch of a Kernel (Compyle's LocalMem): `count` elements per work-group
// (CUDA: per block) for a parameter of type l<type>p. `dtype` types an unannotated parameter;
// for an annotated one it may be left out, and must be the parameter's element type when given.
struct LocalMem {
    size_t count = 0;
    std::optional<DType> dtype;
    LocalMem(size_t count, std::optional<DType> dtype = std::nullopt)
        : count(count), dtype(dtype) {}
};

// One argument of a Kernel launch: anything an Arg can be (an Array, a number), or LocalMem.
class LaunchArg {
public:
    LaunchArg(const Arg &a) : arg_(a) {}
    LaunchArg(const Array &a) : arg_(a) {}
    template <class T>
    requires std::is_arithmetic_v<T> LaunchArg(T v) : arg_(v) {}
    LaunchArg(LocalMem m) : arg_(0), local_(m) {}

    bool is_local() const { return local_.has_value(); }
    const Arg &arg() const { return arg_; }           // meaningless when is_local()
    const LocalMem &local() const { return *local_; } // only when is_local()

private:
    Arg arg_;
    std::optional<LocalMem> local_;
};

// Kernel arguments by parameter name (see Named).
using NamedLaunchArgs = Named<LaunchArg>;

// One function of a Program run as a GPU kernel (Compyle's low-level Kernel), for algorithms the
// primitives do not cover (work-group reductions, tiling through local memory):
//
//   @annotate(x='doublep', partial='doublep', n='int')
//   def block_sum(x, partial, n):
//       buf = declare('LOCAL_MEM matrix(64)')
//       buf[LID_0] = x[GID_0 * LDIM_0 + LID_0] if GID_0 * LDIM_0 + LID_0 < n else 0.0
//       local_barrier()
//       ...
//
//   smelt::Kernel k(prog, "block_sum", {.backend = "opencl"});
//   k(n_rounded_up, 64, {x, partial, int32_t(n)});    // global size, work-group size, args
//
// The function runs once per work-item: global_size work-items in work-groups (CUDA: blocks) of
// local_size. In the kernel, LID_k is the work-item's index in its group, GID_k the group's index,
// LDIM_k the group size and GDIM_k the number of groups (k = 0, 1, 2: OpenCL's get_local_id,
// get_group_id, get_local_size, get_num_groups; CUDA's threadIdx, blockIdx, blockDim, gridDim),
// so the global index is GID_0 * LDIM_0 + LID_0. local_barrier() synchronises the group;
// declare('LOCAL_MEM matrix(n)') is memory shared by the group (OpenCL: only in the kernel
// function itself, not in functions it calls); atomic_inc/atomic_dec/atomic_add return the old
// value. The function returns nothing.
//
// Backends: OpenCL and CUDA only. On a CPU backend the constructor throws UsageError (work-groups
// and local memory do not exist there: use Elementwise).
//
// Arguments follow the rules at the top of this file; a LocalMem goes to an l<type>p parameter
// and nothing else may. Unannotated parameters take their types from the call, and each distinct
// argument-type list is compiled once. UsageError when the global size is not a multiple of the
// local size in some dimension (round it up and check bounds in the kernel) or a size is not
// positive. Launches are asynchronous like every primitive's: reading an Array waits for them.
class Kernel {
public:
    Kernel(const Program &program, const std::string &func, Options options = {});
    ~Kernel();
    Kernel(Kernel &&) noexcept;
    Kernel &operator=(Kernel &&) noexcept;

    // One dimension: global_size work-items in groups of local_size.
    void operator()(int64_t global_size, int64_t local_size, const std::vector<LaunchArg> &args);
    // Up to three dimensions (unused ones: 1).
    void operator()(const std::array<int64_t, 3> &global_size,
                    const std::array<int64_t, 3> &local_size, const std::vector<LaunchArg> &args);
    // By name: every parameter exactly once (UsageError naming unknown, missing and repeated
    // names).
    void operator()(int64_t global_size, int64_t local_size, const NamedLaunchArgs &named);
    void operator()(const std::array<int64_t, 3> &global_size,
                    const std::array<int64_t, 3> &local_size, const NamedLaunchArgs &named);
    // The whole translation unit of the last specialisation ("" before the first call).
    const std::string &source() const;

private:
    std::unique_ptr<primitives::KernelState> s_;
};

// A loop-parallel function (ParPy's model, docs/LANGUAGE.md "Loop-parallel functions"): an
// ordinary-looking function over arrays whose `for` loops (and slice statements) carry labels,
//
//   import smelt.parpy as parpy
//   def row_sums(x, out, N, M):
//       parpy.label('N')
//       for i in range(N):
//           s = 0.0
//           parpy.label('M')
//           for j in range(M):
//               s += x[i * M + j]
//           out[i] = s
//
//   smelt::LoopFunction f(prog, "row_sums", {{"N", {}}, {"M", {.reduce = true}}});
//   f({x, out, int64_t(n), int64_t(m)});
//
// run with the labelled loops that `spec` names in parallel: a top-level loop (with the spec-
// labelled loops directly inside it) over OpenMP threads on the CPU and over work-items on GPUs;
// a `reduce` loop (its body ends with acc op= term) combined in a fixed order, across threads
// at the top level, across a work-group inside a parallel loop on GPUs. Everything else runs
// sequentially in order (on GPUs as one-work-item kernels, next to the data). Arguments are
// Arrays (shaped ones of rank >= 2 are indexed x[i, j] and sliced x[i, :]) and scalars; like
// ParPy, a specialisation is compiled per argument types, integer scalar values (they are
// constants of the code: parallel loop bounds must be known) and array shapes. The kernel file
// must import ParPy's module (`import smelt.parpy as parpy`) for its syntax to be accepted.
// CompileError (located) for what cannot run as the spec says (see plan.h); UsageError for bad
// calls. Bounds and finite checks (Options) are not applied to loop functions.
class LoopFunction {
public:
    LoopFunction(const Program &program, const std::string &name, ParallelSpec spec,
                 Options options = {});
    ~LoopFunction();
    LoopFunction(LoopFunction &&) noexcept;
    LoopFunction &operator=(LoopFunction &&) noexcept;

    void operator()(const std::vector<Arg> &args);
    // The whole translation unit of the specialisation for these arguments (compiled if new).
    std::string source(const std::vector<Arg> &args);

private:
    std::unique_ptr<primitives::LoopFunctionState> s_;
};

} // namespace smelt
