// The primitives' OpenCL target (see primitives/target.h and wrappers.h).
#pragma once

#include "primitives/target.h"

namespace smelt::primitives::opencl {

const PrimitiveTarget &opencl_target();

} // namespace smelt::primitives::opencl
