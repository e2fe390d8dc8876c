// What keeps one run from destroying another's output. A run holds <directory>/.<prefix>.lock
// (flock: released by the kernel when the process ends, however it ends) from its start to its
// end, so a second run into the same files stops at once with a message instead of truncating
// them. A fresh run also refuses to replace the files an earlier run left there, unless asked to
// (--overwrite, which first removes them, so no stale frame of the old run stays behind); a
// restart continues them.
#pragma once

#include "common/run_config.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace smelt::apps {

// Output that a run must not touch: held by another run, or left by an earlier one (the message
// names the file and says what to do).
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class OutputGuard {
public:
    enum class Mode {
        Fresh,     // refuse when output files of the prefix exist
        Overwrite, // remove them
        Continue,  // a restart: keep them
    };
    // Creates the directory, takes the lock, then applies `mode`. OutputError when another run
    // holds the lock or (Fresh) files exist; std::runtime_error for file-system errors.
    OutputGuard(const OutputConfig &output, Mode mode);
    ~OutputGuard(); // removes the lock file and releases it
    OutputGuard(const OutputGuard &) = delete;
    OutputGuard &operator=(const OutputGuard &) = delete;

    const std::string &lock_path() const { return lock_path_; }

private:
    std::string lock_path_;
    int fd_ = -1;
};

// The files of `output`'s directory and prefix that a run writes and that exist now: the H5MD
// file, the CSV, the checkpoint, the VTK collection and frames (<prefix>_<9 digits>.vtp), in that
// order.
std::vector<std::string> existing_outputs(const OutputConfig &output);

} // namespace smelt::apps
