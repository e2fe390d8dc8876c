#include "common/output_guard.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace smelt::apps {

namespace fs = std::filesystem;

namespace {

// "<prefix>_<9 digits>.vtp" (VtkWriter::frame_path).
bool is_vtk_frame(const std::string &name, const std::string &prefix) {
    const std::string head = prefix + "_", tail = ".vtp";
    if (name.size() != head.size() + 9 + tail.size()) return false;
    if (name.compare(0, head.size(), head) != 0) return false;
    if (name.compare(name.size() - tail.size(), tail.size(), tail) != 0) return false;
    return std::all_of(name.begin() + long(head.size()), name.end() - long(tail.size()),
                       [](char c) { return c >= '0' && c <= '9'; });
}

} // namespace

std::vector<std::string> existing_outputs(const OutputConfig &o) {
    std::vector<std::string> out;
    std::error_code ec;
    const fs::path dir(o.directory);
    for (const std::string &path :
         {h5md_path(o), csv_path(o), checkpoint_path(o), (dir / (o.prefix + ".pvd")).string()})
        if (fs::exists(path, ec)) out.push_back(path);
    std::vector<std::string> frames;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (is_vtk_frame(it->path().filename().string(), o.prefix))
            frames.push_back(it->path().string());
    std::sort(frames.begin(), frames.end());
    out.insert(out.end(), frames.begin(), frames.end());
    return out;
}

OutputGuard::OutputGuard(const OutputConfig &o, Mode mode)
    : lock_path_((fs::path(o.directory) / ("." + o.prefix + ".lock")).string()) {
    std::error_code ec;
    fs::create_directories(o.directory, ec);
    if (ec)
        throw std::runtime_error(o.directory +
                                 ": cannot create the output directory: " + ec.message());
    // The lock file is removed by the run holding it; a run that opened it just before then
    // holds an unlinked file, so it checks that the name still leads to the file it locked.
    while (true) {
        fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd_ < 0)
            throw std::runtime_error(lock_path_ +
                                     ": cannot create the lock file: " + std::strerror(errno));
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int err = errno;
            ::close(fd_);
            fd_ = -1;
            if (err == EWOULDBLOCK)
                throw OutputError(
                    "another run is writing " + (fs::path(o.directory) / o.prefix).string() +
                    ".* (it holds " + lock_path_ +
                    "); wait for it to end, or give this run another output.directory or "
                    "output.prefix");
            throw std::runtime_error(lock_path_ + ": cannot lock: " + std::strerror(err));
        }
        struct stat held {
        }, named{};
        if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 &&
            held.st_ino == named.st_ino && held.st_dev == named.st_dev)
            break;
        ::close(fd_);
    }
    if (mode == Mode::Continue) return;
    const std::vector<std::string> found = existing_outputs(o);
    if (found.empty()) return;
    if (mode == Mode::Fresh) {
        const std::string also =
            found.size() > 1 ? " (and " + std::to_string(found.size() - 1) + " more)" : "";
        ::unlink(lock_path_.c_str());
        ::close(fd_);
        fd_ = -1;
        const bool resumable = fs::exists(checkpoint_path(o), ec);
        throw OutputError(
            found.front() + also +
            " exists from an earlier run, and this run would replace it: use "
            "--overwrite to replace it" +
            (resumable ? ", --restart " + checkpoint_path(o) + " to continue it" : std::string()) +
            ", or another --output directory");
    }
    for (const std::string &path : found)
        if (!fs::remove(path, ec) && ec)
            throw std::runtime_error(path + ": cannot remove it (--overwrite): " + ec.message());
}

OutputGuard::~OutputGuard() {
    if (fd_ < 0) return;
    ::unlink(lock_path_.c_str()); // while still holding it (see the constructor)
    ::close(fd_);
}

} // namespace smelt::apps
