// The hand-written CUDA vortex kernels compiled with --use_fast_math (bench/CMakeLists.txt), as
// bench_ref_fast: the reference for Smelt's fast_math option (vortex_cuda_reference.h).
#define BENCH_REF_NS bench_ref_fast
#include "vortex_cuda_reference.cu"
