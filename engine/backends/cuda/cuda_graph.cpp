#include "backends/cuda/cuda_graph.h"

#include "backends/cuda/cuda_backend.h"
#include "backends/cuda/driver_api.h"
#include "backends/registry.h"
#include "support/error.h"

namespace smelt::cuda {

Graph::~Graph() {
    reset();
}

Graph::Graph(Graph &&other) noexcept
    : backend_(other.backend_), graph_(other.graph_), exec_(other.exec_) {
    other.graph_ = other.exec_ = nullptr;
}

Graph &Graph::operator=(Graph &&other) noexcept {
    if (this != &other) {
        reset();
        backend_ = other.backend_;
        graph_ = other.graph_;
        exec_ = other.exec_;
        other.graph_ = other.exec_ = nullptr;
    }
    return *this;
}

void Graph::reset() {
    if (!backend_) return;
    const DriverApi &api = driver();
    if (api.cuCtxSetCurrent(backend_->context()) == CUDA_SUCCESS) {
        if (exec_) api.cuGraphExecDestroy(static_cast<CUgraphExec>(exec_));
        if (graph_) api.cuGraphDestroy(static_cast<CUgraph>(graph_));
    }
    graph_ = exec_ = nullptr;
}

void Graph::replay() {
    if (!exec_) throw UsageError("cuda::Graph::replay on an empty graph (record one first)");
    backend_->make_current();
    check(driver().cuGraphLaunch(static_cast<CUgraphExec>(exec_), backend_->stream()),
          "cuGraphLaunch");
}

Graph record(const std::function<void()> &calls, Backend *backend) {
    Backend &any = backend ? *backend : get_backend("cuda");
    auto *b = dynamic_cast<CudaBackend *>(&any);
    if (!b) throw UsageError("cuda::record needs the cuda backend, not '" + any.name() + "'");
    const DriverApi &api = driver();
    b->make_current();
    check(api.cuStreamBeginCapture(b->stream(), CU_STREAM_CAPTURE_MODE_RELAXED),
          "cuStreamBeginCapture");
    CUgraph graph = nullptr;
    try {
        calls();
    } catch (...) {
        b->make_current();
        if (api.cuStreamEndCapture(b->stream(), &graph) == CUDA_SUCCESS && graph)
            api.cuGraphDestroy(graph);
        throw;
    }
    b->make_current();
    CUresult r = api.cuStreamEndCapture(b->stream(), &graph);
    if (r != CUDA_SUCCESS) {
        if (graph) api.cuGraphDestroy(graph);
        check(r, "recording a CUDA graph (cuStreamEndCapture; a synchronising call inside the "
                 "recorded calls invalidates the capture)");
    }
    Graph g;
    g.backend_ = b;
    g.graph_ = graph;
    CUgraphExec exec = nullptr;
    check(api.cuGraphInstantiate(&exec, graph, 0), "cuGraphInstantiate");
    g.exec_ = exec;
    return g;
}

} // namespace smelt::cuda
