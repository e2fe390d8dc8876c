#include "backends/cpu/module.h"

#include "support/error.h"

#include <dlfcn.h>
#include <mutex>

namespace smelt::cpu {

namespace {
// dlerror() is per thread but dlopen/dlsym + dlerror must still be read as one step.
std::mutex g_dl_mutex;

// A kernel built with OpenMP may be what brought the OpenMP runtime into the process (the host
// program need not link it). Unloading the last such kernel would then unmap the runtime while
// its idle worker threads still sleep inside it: a crash at exit. So once loaded, the runtime is
// pinned (RTLD_NODELETE); RTLD_NOLOAD leaves a process that never loaded it alone.
void pin_openmp_runtime() {
    for (const char *name : {"libgomp.so.1", "libomp.so", "libomp.so.5", "libiomp5.so"})
        if (void *h = ::dlopen(name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE)) ::dlclose(h);
}
} // namespace

SharedObjectModule::SharedObjectModule(std::filesystem::path path) : path_(std::move(path)) {
    std::lock_guard<std::mutex> lock(g_dl_mutex);
    // RTLD_NOW: an unresolved symbol is reported here, not as a crash in the middle of a run.
    // RTLD_LOCAL: kernels of different modules may use the same symbol names.
    handle_ = ::dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) {
        const char *err = ::dlerror();
        throw BackendError("cannot load compiled kernel module " + path_.string(),
                           err ? err : "dlopen failed", "");
    }
    pin_openmp_runtime();
}

SharedObjectModule::~SharedObjectModule() {
    if (handle_) ::dlclose(handle_);
}

void *SharedObjectModule::function(const std::string &name) const {
    std::lock_guard<std::mutex> lock(g_dl_mutex);
    ::dlerror();
    void *sym = ::dlsym(handle_, name.c_str());
    if (!sym) {
        const char *err = ::dlerror();
        throw BackendError("compiled module " + path_.string() + " has no function '" + name + "'",
                           err ? err : "", "");
    }
    return sym;
}

bool SharedObjectModule::has_function(const std::string &name) const {
    std::lock_guard<std::mutex> lock(g_dl_mutex);
    return ::dlsym(handle_, name.c_str()) != nullptr;
}

} // namespace smelt::cpu
