// External functions: functions kernels may call that are defined outside the kernel language,
// in a C / C++ / CUDA / OpenCL C header, a library or source text pasted into the generated
// code (ParPy's `external`, Compyle's `Extern`). docs/LANGUAGE.md, "External functions".
#pragma once

#include <map>
#include <string>
#include <vector>

namespace smelt {

struct External {
    // The name kernels call it by (a Python identifier).
    std::string name;
    // The name the generated code calls ("" → `name`): a C identifier.
    std::string c_name;
    // Parameter types and result type in kernel-language names ("double", "int", "doublep",
    // "floatp", ...; result "void" for none). Arguments are converted to them as for a call of a
    // kernel function; the signature is taken as given (the C declaration is not checked), and
    // the single-precision switch does not change it.
    std::vector<std::string> params;
    std::string result = "void";
    // Included at the top of the generated code when not empty: "my.h" becomes
    // #include "my.h" (found on Options::includes), "<cmath>" is written as given. CUDA
    // intrinsics and the math library need none.
    std::string header;
    // The backends it exists for ("cpu", "opencl", "cuda"); empty: every backend. A call on
    // another backend is an error located at the call.
    std::vector<std::string> backends;
    // Source text pasted before the kernel code, per backend name; the key "" applies to every
    // backend without its own entry (Compyle's Extern.code(backend)).
    std::map<std::string, std::string> code;

    const std::string &emitted_name() const { return c_name.empty() ? name : c_name; }
};

} // namespace smelt
