#include "backends/cuda/driver_api.h"

#include "support/error.h"

#include <dlfcn.h>
#include <mutex>

namespace smelt::cuda {

namespace {

// Two levels, so the argument is macro-expanded first: cuMemAlloc → "cuMemAlloc_v2".
#define SMELT_CU_STR2(x) #x
#define SMELT_CU_STR(x) SMELT_CU_STR2(x)

struct Loaded {
    DriverApi api;
    std::string error; // empty when loaded
};

Loaded load() {
    Loaded out;
    void *lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        const char *e = ::dlerror();
        out.error = std::string("cannot open the NVIDIA driver library libcuda.so.1 (") +
                    (e ? e : "unknown reason") + "); is an NVIDIA driver installed?";
        return out;
    }
    // The library stays open for the life of the process: modules and contexts refer to it.
    auto sym = [&](const char *name) { return ::dlsym(lib, name); };
#define SMELT_CU_FN(name)                                                                          \
    out.api.name = reinterpret_cast<decltype(out.api.name)>(sym(SMELT_CU_STR(name)));              \
    if (!out.api.name && out.error.empty())                                                        \
        out.error = std::string("the NVIDIA driver lacks ") + SMELT_CU_STR(name) +                 \
                    " (driver older than CUDA " + std::to_string(CUDA_VERSION / 1000) + "." +      \
                    std::to_string(CUDA_VERSION % 1000 / 10) + "?)";
#include "backends/cuda/driver_functions.inc"
#undef SMELT_CU_FN
    out.api.cuFuncGetName = reinterpret_cast<decltype(out.api.cuFuncGetName)>(sym("cuFuncGetName"));
    return out;
}

const Loaded &loaded() {
    static const Loaded l = load();
    return l;
}

} // namespace

const DriverApi &driver() {
    const Loaded &l = loaded();
    if (!l.error.empty()) throw BackendError("cuda: " + l.error, "", "");
    return l.api;
}

bool driver_available(std::string *why) {
    const Loaded &l = loaded();
    if (why) *why = l.error;
    return l.error.empty();
}

std::string result_text(CUresult r) {
    const Loaded &l = loaded();
    const char *name = nullptr, *text = nullptr;
    if (l.error.empty()) {
        l.api.cuGetErrorName(r, &name);
        l.api.cuGetErrorString(r, &text);
    }
    std::string out = name ? name : "CUresult " + std::to_string(static_cast<int>(r));
    if (text) out += std::string(" (") + text + ")";
    return out;
}

void check(CUresult r, const std::string &what) {
    if (r != CUDA_SUCCESS) throw BackendError("cuda: " + what + ": " + result_text(r), "", "");
}

} // namespace smelt::cuda
