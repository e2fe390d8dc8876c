#include "lower/externals.h"

#include "ir/type.h"
#include "support/backend_table.h"
#include "support/error.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace smelt::lower {

namespace {

// A backend family (support/backend_table.h): externals are declared for "cpu", not "cpu:serial".
bool known_backend(const std::string &b) {
    const BackendRow *row = find_backend_row(b);
    return row && b == row->family;
}

bool is_identifier(const std::string &s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    });
}

bool is_type(const std::string &name, bool result) {
    if (result && name == "void") return true;
    auto t = parse_type_name(name);
    return t && (t->is_scalar() || t->is_pointer());
}

// The backend part of a backend name: "cpu:serial" → "cpu".
std::string backend_family(const std::string &backend) {
    return backend.substr(0, backend.find(':'));
}

} // namespace

void check_externals(const std::vector<External> &externals) {
    std::set<std::string> seen;
    for (const External &x : externals) {
        const std::string who = "external '" + x.name + "'";
        if (!is_identifier(x.name))
            throw UsageError("external function name '" + x.name + "' is not an identifier");
        if (!seen.insert(x.name).second) throw UsageError(who + " is declared twice");
        if (!x.c_name.empty() && !is_identifier(x.c_name))
            throw UsageError(who + ": its C name '" + x.c_name + "' is not a C identifier");
        for (size_t k = 0; k < x.params.size(); ++k)
            if (!is_type(x.params[k], false))
                throw UsageError(who + ": parameter " + std::to_string(k + 1) + " has type '" +
                                 x.params[k] +
                                 "', which is no scalar or pointer type of the kernel language "
                                 "(e.g. 'double', 'int', 'doublep')");
        if (!is_type(x.result, true))
            throw UsageError(who + ": its result type '" + x.result +
                             "' is no scalar type of the kernel language (or 'void')");
        if (x.result != "void" && parse_type_name(x.result)->is_pointer())
            throw UsageError(who + ": it returns a pointer (" + x.result +
                             "); kernels cannot hold pointers in variables");
        for (const auto &b : x.backends)
            if (!known_backend(b))
                throw UsageError(who + ": unknown backend '" + b + "' (" + backend_families_text() +
                                 ")");
        for (const auto &[b, _] : x.code)
            if (!b.empty() && !known_backend(b))
                throw UsageError(who + ": code for unknown backend '" + b + "' (" +
                                 backend_families_text(", ") + ", or \"\" for every backend)");
        if (x.header.find('\n') != std::string::npos || x.header == "<>" ||
            (!x.header.empty() && x.header.front() == '<' && x.header.back() != '>'))
            throw UsageError(who + ": header '" + x.header +
                             "' is not a header name (my.h, dir/my.h or <cmath>)");
    }
}

const External *find_external(const ast::Module &main, const std::string &name) {
    for (const External &x : main.externals)
        if (x.name == name) return &x;
    return nullptr;
}

Type external_type(const std::string &name) {
    if (name == "void") return Type::void_();
    return *parse_type_name(name);
}

bool external_available(const External &x, const std::string &backend) {
    if (backend.empty() || x.backends.empty()) return true;
    return std::find(x.backends.begin(), x.backends.end(), backend_family(backend)) !=
           x.backends.end();
}

} // namespace smelt::lower
