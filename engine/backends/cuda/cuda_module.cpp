#include "backends/cuda/cuda_module.h"

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/driver_api.h"
#include "support/error.h"

namespace smelt::cuda {

CudaModule::CudaModule(CudaBackend &backend, std::filesystem::path path, const std::string &image)
    : backend_(backend), path_(std::move(path)) {
    backend_.make_current();
    CUresult r = driver().cuModuleLoadData(&module_, image.data());
    if (r != CUDA_SUCCESS)
        throw BackendError("cuda: cannot load compiled module " + path_.string() + " on " +
                               backend_.arch() + ": " + result_text(r),
                           "", "");
}

CudaModule::~CudaModule() {
    // Errors are ignored: at process exit the driver may already be shutting down.
    if (module_ && driver_available()) {
        driver().cuCtxSetCurrent(backend_.context());
        driver().cuModuleUnload(module_);
    }
}

CUfunction CudaModule::lookup(const std::string &name) const {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto it = functions_.find(name); it != functions_.end()) return it->second;
    backend_.make_current();
    CUfunction f = nullptr;
    if (driver().cuModuleGetFunction(&f, module_, name.c_str()) != CUDA_SUCCESS) return nullptr;
    functions_.emplace(name, f);
    return f;
}

void *CudaModule::function(const std::string &name) const {
    CUfunction f = lookup(name);
    if (!f)
        throw BackendError(
            "cuda: compiled module " + path_.string() + " has no kernel '" + name + "'", "", "");
    return reinterpret_cast<void *>(f);
}

bool CudaModule::has_function(const std::string &name) const {
    return lookup(name) != nullptr;
}

} // namespace smelt::cuda
