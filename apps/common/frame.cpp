#include "common/frame.h"

#include <cctype>
#include <stdexcept>

namespace smelt::apps {

Field Field::vector(std::string name, std::vector<std::vector<double>> axes) {
    Field f;
    f.name = std::move(name);
    f.real = std::move(axes);
    f.spatial = true;
    return f;
}

Field Field::reals(std::string name, std::vector<std::vector<double>> components) {
    Field f;
    f.name = std::move(name);
    f.real = std::move(components);
    return f;
}

Field Field::integers(std::string name, std::vector<std::vector<int64_t>> components) {
    Field f;
    f.name = std::move(name);
    f.integer = std::move(components);
    return f;
}

size_t Field::size() const {
    if (is_integer()) return integer.front().size();
    return real.empty() ? 0 : real.front().size();
}

const Field *FrameData::find(const std::string &name) const {
    for (const Field &f : fields)
        if (f.name == name) return &f;
    return nullptr;
}

namespace {

bool plain_identifier(const std::string &s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return !std::isdigit(static_cast<unsigned char>(s[0]));
}

} // namespace

void check_frame(const FrameData &frame, int64_t n, int dim, const std::string &who) {
    auto fail = [&](const std::string &field, const std::string &what) {
        throw std::invalid_argument(who + ": frame field '" + field + "' " + what);
    };
    for (size_t k = 0; k < frame.fields.size(); ++k) {
        const Field &f = frame.fields[k];
        if (!plain_identifier(f.name)) fail(f.name, "needs a name of letters, digits and '_'");
        for (size_t j = 0; j < k; ++j)
            if (frame.fields[j].name == f.name) fail(f.name, "appears twice");
        if (!f.real.empty() && !f.integer.empty()) fail(f.name, "is both real and integer");
        if (f.components() < 1) fail(f.name, "has no components");
        if (f.spatial && f.components() != dim)
            fail(f.name, "is spatial but has " + std::to_string(f.components()) +
                             " components in " + std::to_string(dim) + "D");
        for (int c = 0; c < f.components(); ++c) {
            const size_t got =
                f.is_integer() ? f.integer[size_t(c)].size() : f.real[size_t(c)].size();
            if (got != size_t(n))
                fail(f.name, "has " + std::to_string(got) + " values in component " +
                                 std::to_string(c) + ", expected " + std::to_string(n));
        }
    }
    const Field *pos = frame.find("position");
    if (!pos) throw std::invalid_argument(who + ": a frame needs a 'position' field");
    if (!pos->spatial || pos->is_integer())
        fail("position", "must be a real per-axis field (Field::vector)");
}

} // namespace smelt::apps
