#include "backends/opencl/device_select.h"

#include "support/error.h"

#include <algorithm>
#include <cctype>

namespace smelt::opencl {

namespace {

// The ICD loader's answer when no platform is installed (cl_ext.h's CL_PLATFORM_NOT_FOUND_KHR).
constexpr cl_int kPlatformNotFound = -1001;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

bool contains(const std::string &text, const std::string &part) {
    return lower(text).find(lower(part)) != std::string::npos;
}

bool is_index(const std::string &s) {
    return !s.empty() && s.size() < 9 &&
           std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c); });
}

[[noreturn]] void no_match(const std::vector<DeviceSummary> &devices, const std::string &spec,
                           const std::string &why) {
    throw UsageError("OpenCL device selection '" + spec + "': " + why + "; available devices:\n" +
                     describe_devices(devices) +
                     "select one with SMELT_OPENCL_DEVICE=N or PLATFORM:DEVICE, e.g. "
                     "'portable:0' or 'nvidia:0'");
}

} // namespace

std::vector<FoundDevice> find_devices() {
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &np);
    if (err == kPlatformNotFound || np == 0) return {};
    check(err, "clGetPlatformIDs");
    std::vector<cl_platform_id> platforms(np);
    check(clGetPlatformIDs(np, platforms.data(), nullptr), "clGetPlatformIDs");
    std::vector<FoundDevice> out;
    for (size_t p = 0; p < platforms.size(); ++p) {
        cl_uint nd = 0;
        err = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &nd);
        if (err == CL_DEVICE_NOT_FOUND || nd == 0) continue; // a platform without devices
        check(err, "clGetDeviceIDs");
        std::vector<cl_device_id> ids(nd);
        check(clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, nd, ids.data(), nullptr),
              "clGetDeviceIDs");
        std::string platform_name = platform_string(platforms[p], CL_PLATFORM_NAME);
        for (size_t d = 0; d < ids.size(); ++d) {
            FoundDevice f;
            f.platform = platforms[p];
            f.device = ids[d];
            f.summary.platform_index = p;
            f.summary.device_index = d;
            f.summary.platform_name = platform_name;
            f.summary.device_name = device_string(ids[d], CL_DEVICE_NAME);
            f.summary.is_gpu =
                (device_value<cl_device_type>(ids[d], CL_DEVICE_TYPE) & CL_DEVICE_TYPE_GPU) != 0;
            out.push_back(std::move(f));
        }
    }
    return out;
}

std::string describe_devices(const std::vector<DeviceSummary> &devices) {
    if (devices.empty()) return "  (none: no OpenCL platform with a device is installed)\n";
    std::string out;
    for (size_t i = 0; i < devices.size(); ++i)
        out += "  " + std::to_string(i) + ": " + devices[i].platform_name + " / " +
               devices[i].device_name + (devices[i].is_gpu ? " [gpu]" : " [not a gpu]") + "\n";
    return out;
}

std::vector<size_t> default_devices(const std::vector<DeviceSummary> &devices) {
    std::vector<size_t> gpus, all;
    for (size_t i = 0; i < devices.size(); ++i) {
        all.push_back(i);
        if (devices[i].is_gpu) gpus.push_back(i);
    }
    return gpus.empty() ? all : gpus;
}

size_t select_device(const std::vector<DeviceSummary> &devices, const std::string &spec) {
    if (devices.empty())
        throw UsageError("no OpenCL device found: the ICD loader lists no platform with a device "
                         "(install a driver such as pocl-opencl-icd, or point OCL_ICD_VENDORS "
                         "at a folder of .icd files)");
    if (spec.empty()) return default_devices(devices)[0];
    auto colon = spec.find(':');
    if (colon == std::string::npos && is_index(spec)) {
        size_t n = std::stoul(spec);
        if (n >= devices.size()) no_match(devices, spec, "there is no device " + spec);
        return n;
    }
    std::string platform = spec.substr(0, colon);
    std::string device = colon == std::string::npos ? "" : spec.substr(colon + 1);
    // The platform: by index when numeric, else the first whose name contains the text.
    bool found_platform = false;
    size_t chosen_platform = 0;
    for (const auto &d : devices) {
        bool match = is_index(platform) ? d.platform_index == std::stoul(platform)
                                        : contains(d.platform_name, platform);
        if (match) {
            found_platform = true;
            chosen_platform = d.platform_index;
            break;
        }
    }
    if (!found_platform) no_match(devices, spec, "no platform matches '" + platform + "'");
    for (size_t i = 0; i < devices.size(); ++i) {
        const DeviceSummary &d = devices[i];
        if (d.platform_index != chosen_platform) continue;
        if (device.empty() || (is_index(device) ? d.device_index == std::stoul(device)
                                                : contains(d.device_name, device)))
            return i;
    }
    no_match(devices, spec, "platform '" + platform + "' has no device '" + device + "'");
}

} // namespace smelt::opencl
