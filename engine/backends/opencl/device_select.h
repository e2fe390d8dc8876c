// Finding OpenCL devices and choosing one.
//
// Selection spec (OpenCLOptions::device, else $SMELT_OPENCL_DEVICE):
//   ""                  the first GPU, else the first device
//   "N"                 device N of the flat list `smelt devices` prints (all platforms)
//   "PLATFORM:D"        device D of the first platform whose name contains PLATFORM (any case);
//                       PLATFORM may also be a platform index; D is an index within the platform,
//                       or a substring of the device's name; "PLATFORM" alone or "PLATFORM:"
//                       means device 0 of it
// A spec that matches nothing is a UsageError listing every device with its number.
#pragma once

#include "backends/opencl/cl_api.h"

#include <cstdint>
#include <string>
#include <vector>

namespace smelt::opencl {

// What selection looks at, and what `smelt devices` prints.
struct DeviceSummary {
    size_t platform_index = 0;
    size_t device_index = 0; // within the platform
    std::string platform_name;
    std::string device_name;
    bool is_gpu = false;
};

struct FoundDevice {
    DeviceSummary summary;
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
};

// Every device of every platform the ICD loader knows; empty when there are none (no ICD
// installed is not an error here).
std::vector<FoundDevice> find_devices();

// The devices a choice without a spec takes from: every GPU in list order, or every device when
// there is none. select_device(devices, "") is the first; the ranks of an MPI job on one node
// share them round robin (never a CPU device beside GPUs).
std::vector<size_t> default_devices(const std::vector<DeviceSummary> &devices);

// Index into `devices` chosen by `spec` (see above). UsageError when nothing matches or the list
// is empty; the message lists the devices.
size_t select_device(const std::vector<DeviceSummary> &devices, const std::string &spec);

// "  0: Portable Computing Language / pthread-haswell-AMD EPYC [cpu]" lines, for messages.
std::string describe_devices(const std::vector<DeviceSummary> &devices);

} // namespace smelt::opencl
