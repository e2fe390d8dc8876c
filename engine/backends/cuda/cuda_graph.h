// CUDA graphs (ParPy's use_cuda_graphs): record a sequence of primitive calls once, replay it
// with one launch.
//
//     smelt::Elementwise step(prog, "step", {"cuda"});
//     step({x, v, dt});                                  // first call: compiles and loads
//     smelt::cuda::Graph g = smelt::cuda::record([&] {   // captures the calls' device work
//         step({x, v, dt});
//         scan({{"x", x}, {"y", y}});
//     });
//     for (int t = 0; t < steps; ++t) g.replay();       // asynchronous, in stream order
//
// Recording captures the backend's stream (cuStreamBeginCapture, relaxed mode); the calls run
// nothing while recorded. What is recorded is fixed: the same arrays (device addresses) and the
// same scalar values every replay. Only device work can be recorded: kernel launches, device
// copies and sort_by_key/argsort; reading to the host (Array::to_vector, pull, a Reduction's
// result) and synchronising are errors while recording, and host-to-device writes (push,
// Array::from_vector) should happen before. Call each primitive once before recording, so its
// module is compiled and loaded outside the capture.
#pragma once

#include "backends/backend.h"

#include <functional>

namespace smelt::cuda {

class CudaBackend;

class Graph {
public:
    Graph() = default;
    ~Graph();
    Graph(Graph &&other) noexcept;
    Graph &operator=(Graph &&other) noexcept;
    Graph(const Graph &) = delete;
    Graph &operator=(const Graph &) = delete;

    // Enqueues the whole recorded sequence on the backend's stream (cuGraphLaunch).
    void replay();
    bool empty() const { return exec_ == nullptr; }

private:
    friend Graph record(const std::function<void()> &calls, Backend *backend);
    void reset();

    CudaBackend *backend_ = nullptr;
    void *graph_ = nullptr; // CUgraph
    void *exec_ = nullptr;  // CUgraphExec
};

// Runs `calls` with `backend`'s stream captured into a graph (backend: the "cuda" backend by
// default; UsageError for another backend). If `calls` throws, the capture is ended and
// discarded and the exception passes on; a capture the driver invalidated (a synchronising
// call inside) is a BackendError.
Graph record(const std::function<void()> &calls, Backend *backend = nullptr);

} // namespace smelt::cuda
