#include "common/domain/gather.h"

#include "common/domain/mpi_env.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace smelt::apps::domain {

namespace {

template <class T> void put(std::vector<char> &out, const std::vector<T> &v) {
    const size_t at = out.size();
    out.resize(at + v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(out.data() + at, v.data(), v.size() * sizeof(T));
}

template <class T> std::vector<T> take(const char *&p, size_t n) {
    std::vector<T> v(n);
    if (n) std::memcpy(v.data(), p, n * sizeof(T));
    p += n * sizeof(T);
    return v;
}

} // namespace

Columns gather_by_id(const Columns &local, int64_t n_total) {
    // Message: count, ids, every real column, every integer column.
    std::vector<char> msg;
    put(msg, std::vector<int64_t>{int64_t(local.ids.size())});
    put(msg, local.ids);
    for (const auto &c : local.reals)
        put(msg, c);
    for (const auto &c : local.integers)
        put(msg, c);
    const std::vector<char> all = mpi::gather_bytes(msg);
    Columns out;
    if (!mpi::is_root()) return out;
    const auto n = size_t(n_total);
    out.ids.resize(n);
    for (size_t k = 0; k < n; ++k)
        out.ids[k] = int64_t(k);
    out.reals.assign(local.reals.size(), std::vector<double>(n));
    out.integers.assign(local.integers.size(), std::vector<int64_t>(n));
    std::vector<bool> seen(n, false);
    size_t found = 0;
    const char *p = all.data(), *end = all.data() + all.size();
    while (p < end) {
        const auto count = size_t(take<int64_t>(p, 1)[0]);
        const std::vector<int64_t> ids = take<int64_t>(p, count);
        for (int64_t id : ids) {
            if (id < 0 || size_t(id) >= n || seen[size_t(id)])
                throw std::runtime_error("gathering particles: id " + std::to_string(id) +
                                         " out of range or held twice");
            seen[size_t(id)] = true;
        }
        found += count;
        for (auto &col : out.reals) {
            const std::vector<double> v = take<double>(p, count);
            for (size_t k = 0; k < count; ++k)
                col[size_t(ids[k])] = v[k];
        }
        for (auto &col : out.integers) {
            const std::vector<int64_t> v = take<int64_t>(p, count);
            for (size_t k = 0; k < count; ++k)
                col[size_t(ids[k])] = v[k];
        }
    }
    if (found != n)
        throw std::runtime_error("gathering particles: " + std::to_string(found) + " of " +
                                 std::to_string(n) + " particles found on the ranks");
    return out;
}

} // namespace smelt::apps::domain
