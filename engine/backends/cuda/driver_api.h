// The CUDA driver API, opened at run time with dlopen("libcuda.so.1").
//
// Linking libcuda directly would make every smelt binary (the CLI, the tests) fail to start on a
// machine without an NVIDIA driver, such as CI. Opening it at run time instead turns "no driver"
// into an ordinary, reportable condition (the cuda backend is then listed as unavailable).
//
// Each entry is the versioned symbol cuda.h maps the plain name to (cuMemAlloc → cuMemAlloc_v2),
// with the type of the header's declaration, so calls read exactly like the documented API:
// `api.cuMemAlloc(&ptr, bytes)`.
#pragma once

#include <cuda.h>

#include <string>

namespace smelt::cuda {

struct DriverApi {
#define SMELT_CU_FN(name) decltype(&::name) name = nullptr;
#include "backends/cuda/driver_functions.inc"
#undef SMELT_CU_FN
    // Optional (driver 12.3+): used only to name kernels in error messages.
    CUresult (*cuFuncGetName)(const char **, CUfunction) = nullptr;
};

// The process-wide table, loaded on first use. Throws BackendError when libcuda.so.1 cannot be
// opened or lacks a symbol (a driver older than this smelt's CUDA headers).
const DriverApi &driver();

// True when the table can be loaded; `why` gets the reason when it cannot.
bool driver_available(std::string *why = nullptr);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)" for a result code.
std::string result_text(CUresult r);

// Throws BackendError("cuda: <what>: <result text>") unless r == CUDA_SUCCESS.
void check(CUresult r, const std::string &what);

} // namespace smelt::cuda
