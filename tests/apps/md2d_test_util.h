// Shared pieces of the md2d engine and driver tests: physics.py as a Program, configs from text
// (temporary folders and SerialCpu come from app_test_util.h).
#pragma once

#include "app_test_util.h"
#include "common/kernel_file.h"
#include "md2d/config.h"
#include "smelt.h"

#include <string>

namespace smelt::apps::test_util {

inline const smelt::Program &md2d_physics() {
    static const smelt::Program p = smelt::apps::load_kernel_program(SMELT_MD2D_PHYSICS_PATH);
    return p;
}

inline md2d::Md2dConfig md2d_config(const std::string &yaml) {
    return md2d::load_md2d_config_string(yaml, "test.yaml");
}

} // namespace smelt::apps::test_util
