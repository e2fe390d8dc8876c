// The headers a translation unit includes from the user's directories, for the cache key: a
// kernel calling an external function declared in a header must be rebuilt when that header
// changes, although the generated source does not.
#pragma once

#include <string>
#include <vector>

namespace smelt {

// One line per quoted #include of `source` ("name path content-hash", or "name not found"),
// each looked up in `include_dirs` in order as the compilers do (an absolute name as it is).
// Angle-bracket includes (system headers) and the headers included headers include are not
// followed. "" when there are none.
std::string header_dependencies(const std::string &source,
                                const std::vector<std::string> &include_dirs);

} // namespace smelt
