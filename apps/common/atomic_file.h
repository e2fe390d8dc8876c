// Files that appear whole or not at all: built under a temporary name beside the target and
// renamed over it (rename(2) is atomic within a file system), so a run killed at any moment leaves
// the previous file or the new one, never a torn one. The kernel cache publishes its entries the
// same way (engine/cache/disk_cache.h). Used by checkpoints, VTK frames and collections, and a
// CSV cut back on a restart.
//
//   const std::string tmp = temporary_path_for(path);
//   write_everything_to(tmp);
//   publish_file(tmp, path);
#pragma once

#include <string>

namespace smelt::apps {

// The temporary name for building `path`: "<path>.tmp" (same folder, so the rename is atomic;
// a leftover of a killed write is replaced by the next one).
std::string temporary_path_for(const std::string &path);

// Makes `tmp` the file `path`: its bytes are synced to disk, then it is renamed over `path`.
// std::runtime_error naming both paths when the rename fails (`tmp` is removed then).
void publish_file(const std::string &tmp, const std::string &path);

// Writes `text` to `path` through a temporary and publish_file(); std::runtime_error on failure.
void write_file_atomically(const std::string &path, const std::string &text);

// True when another open file description holds a lock on `path` (flock, as HDF5 takes on the
// files it has open, or fcntl): the file is in use by another run or program and must not be
// replaced. False when `path` does not exist or cannot be opened for reading.
bool file_is_locked(const std::string &path);

} // namespace smelt::apps
