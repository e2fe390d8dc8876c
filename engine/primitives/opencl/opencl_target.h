// The primitives' OpenCL target (see primitives/target.h and wrappers.h).
#pragma once

#include "primitives/opencl/layout.h"
#include "primitives/target.h"

namespace smelt::primitives::opencl {

// The target of a layout (layout.h); the default is the CPU layout, whose Elementwise is the
// same as the GPU layout's.
const PrimitiveTarget &opencl_target(Layout layout = Layout::Cpu);

} // namespace smelt::primitives::opencl
