#include "common/checkpoint.h"

#include <cctype>

namespace smelt::apps {

void Checkpoint::put(const std::string &name, Values values) {
    bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
    for (char c : name)
        ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
    if (!ok)
        throw std::invalid_argument("checkpoint entry '" + name +
                                    "': names are letters, digits and '_'");
    entries_[name] = std::move(values);
}

void Checkpoint::fail(const std::string &name, const std::string &message) const {
    const std::string where = source.empty() ? std::string("checkpoint") : source;
    throw CheckpointError(where + ": entry '" + name + "' " + message +
                          (app.empty() ? std::string() : " (written by " + app + ")"));
}

} // namespace smelt::apps
