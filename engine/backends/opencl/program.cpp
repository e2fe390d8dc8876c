#include "backends/opencl/program.h"

#include "support/error.h"

namespace smelt::opencl {

namespace {

std::string trimmed_log(cl_program program, cl_device_id device) {
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
        CL_SUCCESS)
        return "(the build log could not be read)";
    std::string log(size, '\0');
    if (size)
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n' || log.back() == ' '))
        log.pop_back();
    return log;
}

ProgramBuild finish(cl_program program, cl_device_id device, const std::string &options) {
    ProgramBuild out;
    out.program = program;
    out.status = clBuildProgram(program, 1, &device, options.c_str(), nullptr, nullptr);
    out.log = trimmed_log(program, device);
    return out;
}

} // namespace

ProgramBuild build_from_source(cl_context context, cl_device_id device, const std::string &source,
                               const std::string &options) {
    const char *text = source.c_str();
    size_t length = source.size();
    cl_int err = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &text, &length, &err);
    if (err != CL_SUCCESS) return {nullptr, err, describe_error("clCreateProgramWithSource", err)};
    return finish(program, device, options);
}

ProgramBuild build_from_binary(cl_context context, cl_device_id device,
                               const std::vector<unsigned char> &binary) {
    const unsigned char *bytes = binary.data();
    size_t length = binary.size();
    cl_int binary_status = CL_SUCCESS, err = CL_SUCCESS;
    cl_program program =
        clCreateProgramWithBinary(context, 1, &device, &length, &bytes, &binary_status, &err);
    if (err == CL_SUCCESS) err = binary_status;
    if (err != CL_SUCCESS) {
        if (program) clReleaseProgram(program);
        return {nullptr, err, describe_error("clCreateProgramWithBinary", err)};
    }
    return finish(program, device, "");
}

std::vector<unsigned char> program_binary(cl_program program) {
    size_t size = 0;
    check(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
          "clGetProgramInfo(CL_PROGRAM_BINARY_SIZES)");
    if (size == 0) throw BackendError("the OpenCL driver returned an empty program binary", "", "");
    std::vector<unsigned char> binary(size);
    unsigned char *ptr = binary.data();
    check(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr),
          "clGetProgramInfo(CL_PROGRAM_BINARIES)");
    return binary;
}

ProgramModule::ProgramModule(cl_program program, std::filesystem::path path)
    : program_(program), path_(std::move(path)) {
    size_t size = 0;
    check(clGetProgramInfo(program_, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size),
          "clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES)");
    std::string names(size, '\0');
    if (size)
        check(clGetProgramInfo(program_, CL_PROGRAM_KERNEL_NAMES, size, names.data(), nullptr),
              "clGetProgramInfo(CL_PROGRAM_KERNEL_NAMES)");
    size_t start = 0;
    for (;;) { // "a;b;c" plus a NUL
        size_t end = names.find_first_of(";", start);
        std::string n = names.substr(start, end == std::string::npos ? end : end - start);
        while (!n.empty() && n.back() == '\0')
            n.pop_back();
        if (!n.empty()) names_.insert(n);
        if (end == std::string::npos) break;
        start = end + 1;
    }
}

ProgramModule::~ProgramModule() {
    for (auto &[name, kernel] : kernels_)
        clReleaseKernel(kernel);
    clReleaseProgram(program_);
}

void *ProgramModule::function(const std::string &name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = kernels_.find(name); it != kernels_.end()) return it->second;
    if (!names_.count(name))
        throw BackendError("OpenCL program " + path_.string() + " has no kernel '" + name + "'", "",
                           "");
    cl_int err = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program_, name.c_str(), &err);
    check(err, "clCreateKernel");
    kernels_.emplace(name, kernel);
    return kernel;
}

bool ProgramModule::has_function(const std::string &name) const {
    return names_.count(name) > 0;
}

} // namespace smelt::opencl
