// The primitives' CPU target (see primitives/target.h).
#pragma once

#include "primitives/target.h"

namespace smelt::primitives::cpu {

const PrimitiveTarget &cpu_target();

} // namespace smelt::primitives::cpu
