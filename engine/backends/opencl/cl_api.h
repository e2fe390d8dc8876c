// The OpenCL C API as the backend uses it: cl.h pinned to the 1.2 API (every call the backend
// makes exists since 1.2, so any OpenCL 1.2+ ICD works), error names, and info queries.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <string>
#include <vector>

namespace smelt::opencl {

// "CL_INVALID_VALUE" for -30; "unknown OpenCL error" for codes no header defines.
const char *error_name(cl_int code);
// "clCreateBuffer failed: CL_INVALID_BUFFER_SIZE (-61)".
std::string describe_error(const char *call, cl_int code);
// Throws BackendError(describe_error(call, code)) unless code is CL_SUCCESS.
void check(cl_int code, const char *call);

// String-valued info, without the terminating NUL (BackendError when the query fails).
std::string platform_string(cl_platform_id platform, cl_platform_info what);
std::string device_string(cl_device_id device, cl_device_info what);

// A fixed-size device info value (cl_uint, cl_ulong, size_t, cl_device_type...).
template <class T> T device_value(cl_device_id device, cl_device_info what) {
    T value{};
    check(clGetDeviceInfo(device, what, sizeof(T), &value, nullptr), "clGetDeviceInfo");
    return value;
}

} // namespace smelt::opencl
