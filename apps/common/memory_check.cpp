#include "common/memory_check.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace smelt::apps {

namespace {

std::string gib(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g GiB", bytes / (1024.0 * 1024.0 * 1024.0));
    return text;
}

} // namespace

uint64_t physical_memory_bytes() {
    if (const char *env = std::getenv("SMELT_APPS_MEMORY_BYTES"); env && *env)
        return std::strtoull(env, nullptr, 10);
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? uint64_t(pages) * uint64_t(page) : 0;
}

void check_fits_memory(const ConfigSource &source, std::string_view key_path, int64_t n,
                       double bytes_per_particle, const char *items) {
    const uint64_t memory = physical_memory_bytes();
    const double need = double(n) * bytes_per_particle;
    if (memory == 0 || need <= double(memory)) return;
    fail_at_path(source, key_path,
                 std::to_string(n) + " " + items + " need at least " + gib(need) + " of memory (" +
                     std::to_string(int64_t(bytes_per_particle)) +
                     " bytes each), more than this machine's " + gib(double(memory)) +
                     "; use fewer particles");
}

} // namespace smelt::apps
