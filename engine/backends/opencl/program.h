// OpenCL programs: building from source or from a cached binary, the build log, the binary,
// and the backend's Module (a built cl_program whose kernels are created on first use).
#pragma once

#include "backends/backend.h"
#include "backends/opencl/cl_api.h"

#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace smelt::opencl {

// The outcome of clBuildProgram on one device. `program` is owned by the caller (released
// with clReleaseProgram) and null when the program object could not even be created.
struct ProgramBuild {
    cl_program program = nullptr;
    cl_int status = CL_SUCCESS; // of clBuildProgram (or of the create call that failed)
    std::string log;            // the device's build log, trimmed
};

ProgramBuild build_from_source(cl_context context, cl_device_id device, const std::string &source,
                               const std::string &options);
ProgramBuild build_from_binary(cl_context context, cl_device_id device,
                               const std::vector<unsigned char> &binary);

// The device's program binary (CL_PROGRAM_BINARIES) of a built single-device program.
std::vector<unsigned char> program_binary(cl_program program);

class ProgramModule : public Module {
public:
    // Takes ownership of a successfully built program.
    ProgramModule(cl_program program, std::filesystem::path path);
    ~ProgramModule() override;
    ProgramModule(const ProgramModule &) = delete;
    ProgramModule &operator=(const ProgramModule &) = delete;

    // The cl_kernel named `name` (one per module, created on first use; launches of one kernel
    // are serialised by the backend, since clSetKernelArg is not thread-safe per kernel).
    void *function(const std::string &name) const override;
    bool has_function(const std::string &name) const override;
    const std::filesystem::path &path() const override { return path_; }

private:
    cl_program program_;
    std::filesystem::path path_;
    std::set<std::string> names_; // CL_PROGRAM_KERNEL_NAMES
    mutable std::mutex mutex_;
    mutable std::map<std::string, cl_kernel> kernels_;
};

} // namespace smelt::opencl
