// A shared object loaded with dlopen: the CPU backend's Module.
#pragma once

#include "backends/backend.h"

namespace smelt::cpu {

class SharedObjectModule : public Module {
public:
    // dlopen(path, RTLD_NOW | RTLD_LOCAL); BackendError with dlerror() when it fails.
    explicit SharedObjectModule(std::filesystem::path path);
    ~SharedObjectModule() override;
    SharedObjectModule(const SharedObjectModule &) = delete;
    SharedObjectModule &operator=(const SharedObjectModule &) = delete;

    void *function(const std::string &name) const override;
    bool has_function(const std::string &name) const override;
    const std::filesystem::path &path() const override { return path_; }

private:
    std::filesystem::path path_;
    void *handle_ = nullptr;
};

} // namespace smelt::cpu
