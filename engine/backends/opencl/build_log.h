// Build logs that point into the generated source, mapped to the user's file.
//
// Generated OpenCL C carries `#line N "file.py"` directives. PoCL's compiler (Clang) honours them
// and reports `file.py:14:5: error: ...`; NVIDIA's ignores them and reports the line of the text
// it was given, as `<kernel>:4:12: error: ...` (other drivers print `<source>:4:12:` or a bare
// `:4:12:`). map_log_locations rewrites those unmapped locations through the directives: line L
// of the text maps to N + (L - D - 1) in `file` for the latest directive `#line N "file"` on a
// line D above L. Locations already naming a file, and lines above the first directive, are
// left as they are.
#pragma once

#include <string>

namespace smelt::opencl {

std::string map_log_locations(const std::string &log, const std::string &source);

} // namespace smelt::opencl
