// Runs a semantics case in CPython through tests/semantics/oracle.py: writes the inputs as .npy
// files, runs the test interpreter (test_python.h), reads the arrays back as the kernel left them.
#pragma once

#include "case_spec.h"
#include "npy.h"
#include "support/process.h"
#include "test_python.h"

#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

namespace smelt::testing {

struct OracleResult {
    enum class Status { Ok, Skip, Fail } status = Status::Fail;
    std::string message;            // why it skipped or failed (the oracle's own output)
    std::vector<HostArray> outputs; // one per argument, in order
};

inline OracleResult run_oracle(const CaseSpec &spec, const std::vector<HostArray> &inputs) {
    namespace fs = std::filesystem;
    OracleResult r;
    fs::path dir = fs::temp_directory_path() /
                   ("smelt_semantics_" + spec.name + "_" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (size_t k = 0; k < inputs.size(); ++k)
        write_npy(dir / ("arg" + std::to_string(k) + ".npy"), inputs[k]);
    ProcessResult p =
        run_process({smelt::testing_util::test_python(), (semantics_dir() / "oracle.py").string(),
                     spec.path, spec.kernel, std::to_string(spec.n), dir.string()});
    if (!p.started) {
        r.status = OracleResult::Status::Skip;
        r.message = "cannot run " + smelt::testing_util::test_python() + ": " + p.output;
    } else if (p.exit_status == 77) {
        r.status = OracleResult::Status::Skip;
        r.message = p.output;
    } else if (p.exit_status != 0) {
        r.message = "oracle.py exited with " + std::to_string(p.exit_status) + ":\n" + p.output;
    } else {
        try {
            for (size_t k = 0; k < inputs.size(); ++k)
                r.outputs.push_back(read_npy(dir / ("out" + std::to_string(k) + ".npy")));
            r.status = OracleResult::Status::Ok;
        } catch (const std::exception &e) {
            r.message = e.what();
        }
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
    return r;
}

} // namespace smelt::testing
