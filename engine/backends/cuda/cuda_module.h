// A CUBIN loaded with cuModuleLoadData: the CUDA backend's Module.
#pragma once

#include "backends/backend.h"

#include <cuda.h>

#include <mutex>
#include <string>
#include <unordered_map>

namespace smelt::cuda {

class CudaBackend;

class CudaModule : public Module {
public:
    // Loads `image` (CUBIN bytes) into the backend's context. BackendError when the driver
    // refuses it (wrong architecture, corrupt file, no memory).
    CudaModule(CudaBackend &backend, std::filesystem::path path, const std::string &image);
    ~CudaModule() override;
    CudaModule(const CudaModule &) = delete;
    CudaModule &operator=(const CudaModule &) = delete;

    // A CUfunction (as void *); BackendError when the module has no kernel of that name.
    void *function(const std::string &name) const override;
    bool has_function(const std::string &name) const override;
    const std::filesystem::path &path() const override { return path_; }

private:
    CUfunction lookup(const std::string &name) const; // nullptr when missing

    CudaBackend &backend_;
    std::filesystem::path path_;
    CUmodule module_ = nullptr;
    mutable std::mutex mutex_;
    mutable std::unordered_map<std::string, CUfunction> functions_;
};

} // namespace smelt::cuda
