// The backends, one row each: what a backend name selects (the Backend that compiles and runs,
// the code generator's dialect, the primitives' target) and the facts about it that the stages
// ask (work-groups, recursion, host libraries). Adding a backend is one row here, one dialect
// (codegen/) and one target directory (backends/NAME/, primitives/NAME/).
//
// The rows are read from lowering onwards, so their type and lookups are declared here, in the
// first stage; the table itself is written in primitives/backend_table.cpp, the first stage that
// sees every part it names (backends/, codegen/, primitives/). The other types are only named.
// The lookups here call backend_rows() there: a call into a later stage, which the engine being
// one library resolves (ARCHITECTURE.md, "Folders and stage order").
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace smelt {

class Backend;
namespace codegen {
struct Dialect;
}
namespace primitives {
class PrimitiveTarget;
}

// Whether a backend can be used here and now (`smelt devices`, the errors of get_backend).
struct BackendStatus {
    std::string name;
    bool available = false;
    std::string note; // why not available, or how to select it
};

struct BackendRow {
    const char *name = nullptr; // what Options::backend says: "cpu", "cpu:serial", "opencl", "cuda"
    const char *family = nullptr; // Backend::name() of what it makes: "cpu" for both CPU rows
    const char *alias = nullptr;  // another spelling of the same row ("cpu:openmp"), or null
    // "NAME:DEVICE" selects a device ("opencl:1", "opencl:NVIDIA:0", "cuda:1").
    bool takes_device = false;
    // Work-groups, local memory and address spaces exist: the work-item builtins (LID_0, ...,
    // local_barrier), LOCAL_MEM, smelt::Kernel, and LoopFunction's work-item plan. Without
    // them, pointers of every address space are one kind.
    bool work_groups = false;
    bool recursion = false;      // a kernel function may call itself
    bool host_libraries = false; // Options::libs: the binary is host code that links libraries
    // Options::includes are written into one option string that cannot carry spaces.
    bool includes_without_spaces = false;
    // LOCAL_MEM may be declared in the kernel function only, not in functions it calls.
    bool local_mem_in_kernel_only = false;
    // A kernel is a __global__ wrapper generated around its __device__ function (CUDA), not
    // the function itself emitted as a kernel (OpenCL's __kernel).
    bool kernel_wrappers = false;

    BackendStatus (*status)() = nullptr; // asked each time: a device or driver may come and go
    // The backend for `spec` (this row's name or alias, or NAME:DEVICE with `device` the part
    // after the colon); null when this smelt was built without it or no device is present.
    std::unique_ptr<Backend> (*make)(const std::string &spec, const std::string &device) = nullptr;
    const codegen::Dialect &(*dialect)() = nullptr;
    // The primitives' target on `backend` (null: the default device's); null when built
    // without it.
    const primitives::PrimitiveTarget &(*target)(Backend *backend) = nullptr;
    // How many devices "NAME:N" chooses among (N from 0; 0 when none is usable), asked without
    // making a backend (an MPI job gives each rank of a node its own device); null: the row has
    // one device when available.
    size_t (*device_count)() = nullptr;
    // The device numbers (N of "NAME:N") that the ranks of an MPI job on one node share round
    // robin, in order: for OpenCL the GPUs when there are any (as plain "opencl" takes the first
    // GPU), else every device; empty when none is usable. Null: 0 .. device_count - 1.
    std::vector<size_t> (*rank_devices)() = nullptr;
};

// Every row, in the order `smelt devices` lists them.
const std::vector<BackendRow> &backend_rows();

// The row of a backend spec: the row named (or aliased) so, else the first row whose family is
// the part of `spec` before its colon ("opencl:1" → opencl, "cpu:x" → cpu); null if none.
const BackendRow *find_backend_row(const std::string &spec);

// The families in table order, each once: {"cpu", "opencl", "cuda"}, what the apps' `backend`
// setting and the Python package's engine names choose from; with `work_groups_only`, those of
// rows with work_groups ({"opencl", "cuda"}).
std::vector<std::string> backend_families(bool work_groups_only = false);

// The families, as an error message lists them: "cpu, opencl or cuda"; with
// `work_groups_only`, those of rows with work_groups ("opencl or cuda").
std::string backend_families_text(const char *last_separator = " or ",
                                  bool work_groups_only = false);

} // namespace smelt
