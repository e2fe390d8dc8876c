// The primitives' CUDA target (see primitives/target.h): CUDA dialect wrappers (wrappers.h),
// launched through the CUDA backend with its stream and scratch memory.
#pragma once

#include "primitives/target.h"

namespace smelt::primitives::cuda {

const PrimitiveTarget &cuda_target();

} // namespace smelt::primitives::cuda
