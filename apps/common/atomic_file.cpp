#include "common/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace smelt::apps {

std::string temporary_path_for(const std::string &path) {
    return path + ".tmp";
}

void publish_file(const std::string &tmp, const std::string &path) {
    struct stat built {};
    if (::lstat(tmp.c_str(), &built) != 0 || !S_ISREG(built.st_mode))
        throw std::runtime_error(path + ": " + tmp + " is not the file that was written");
    const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd); // the bytes reach the disk before the name does
        ::close(fd);
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        std::remove(tmp.c_str());
        throw std::runtime_error(path + ": cannot replace it with " + tmp + ": " + why);
    }
}

void write_file_atomically(const std::string &path, const std::string &text) {
    const std::string tmp = temporary_path_for(path);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush()) {
            const std::string why = std::strerror(errno);
            out.close();
            std::remove(tmp.c_str());
            throw std::runtime_error(path + ": cannot write " + tmp + ": " + why);
        }
    }
    publish_file(tmp, path);
}

bool file_is_locked(const std::string &path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    if (!locked) {
        // A POSIX record lock (fcntl) held by another process.
        struct flock probe {};
        probe.l_type = F_WRLCK; // would conflict with any lock
        probe.l_whence = SEEK_SET;
        locked = ::fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
    }
    ::close(fd); // releases the probe's own flock, if it got one
    return locked;
}

} // namespace smelt::apps
