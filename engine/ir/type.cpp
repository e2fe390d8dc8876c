#include "ir/type.h"

#include <array>
#include <string>
#include <utility>
#include <vector>

namespace smelt::ir {

namespace {

struct ScalarInfo {
    Scalar s;
    const char *name;
    int bits;
    bool is_signed;
    bool is_float;
};

// Indexed by Scalar. Bool is stored as a byte, so it reports 8 bits.
constexpr std::array<ScalarInfo, 11> kScalars = {{
    {Scalar::Bool, "bool", 8, false, false},
    {Scalar::I8, "char", 8, true, false},
    {Scalar::U8, "uchar", 8, false, false},
    {Scalar::I16, "short", 16, true, false},
    {Scalar::U16, "ushort", 16, false, false},
    {Scalar::I32, "int", 32, true, false},
    {Scalar::U32, "uint", 32, false, false},
    {Scalar::I64, "long", 64, true, false},
    {Scalar::U64, "ulong", 64, false, false},
    {Scalar::F32, "float", 32, true, true},
    {Scalar::F64, "double", 64, true, true},
}};

const ScalarInfo &info(Scalar s) {
    return kScalars[static_cast<size_t>(s)];
}

std::optional<Scalar> parse_scalar(const std::string &name) {
    for (const auto &i : kScalars) {
        if (name == i.name) return i.s;
        // Compyle's aliases that do not shadow Python builtins: int_, float_, long_, ...
        if (name.size() == std::char_traits<char>::length(i.name) + 1 && name.back() == '_' &&
            name.compare(0, name.size() - 1, i.name) == 0)
            return i.s;
    }
    return std::nullopt;
}

std::string dims_str(const std::vector<int64_t> &dims) {
    std::string out = "(";
    for (size_t k = 0; k < dims.size(); ++k) {
        if (k) out += ", ";
        out += std::to_string(dims[k]);
    }
    if (dims.size() == 1) out += ",";
    return out + ")";
}

} // namespace

bool scalar_is_integer(Scalar s) {
    return s != Scalar::Bool && !info(s).is_float;
}
bool scalar_is_signed(Scalar s) {
    return info(s).is_signed;
}
bool scalar_is_float(Scalar s) {
    return info(s).is_float;
}
int scalar_bits(Scalar s) {
    return info(s).bits;
}
const char *scalar_name(Scalar s) {
    return info(s).name;
}

bool Type::is_integer() const {
    return is_scalar() && scalar_is_integer(elem);
}
bool Type::is_float() const {
    return is_scalar() && scalar_is_float(elem);
}

std::string Type::str() const {
    switch (kind) {
    case Kind::Void:
        return "void";
    case Kind::Scalar:
        return scalar_name(elem);
    case Kind::Pointer:
        return std::string(space == AddrSpace::Local ? "l" : "") + scalar_name(elem) + "p";
    case Kind::Matrix: {
        // A global matrix is an array argument's shape, never written by users: its own word.
        if (space == AddrSpace::Global)
            return "array(" + dims_str(dims) + ", '" + scalar_name(elem) + "')";
        std::string prefix = space == AddrSpace::Local ? "LOCAL_MEM " : "";
        if (elem == Scalar::F64 && dims.size() == 1)
            return prefix + "matrix(" + std::to_string(dims[0]) + ")";
        return prefix + "matrix(" + dims_str(dims) + ", '" + scalar_name(elem) + "')";
    }
    }
    return "?";
}

namespace {

// Compyle's C spellings of a type ("unsigned int", "double*", "GLOBAL_MEM float*",
// "LOCAL_MEM unsigned long*") as the language's names ("uint", "doublep", "gfloatp", "lulongp");
// an empty string when `name` is not such a spelling.
std::string from_c_spelling(const std::string &name) {
    std::string spaced;
    for (char ch : name)
        spaced += ch == '*' ? std::string(" * ") : std::string(1, ch);
    std::vector<std::string> words;
    std::string w;
    for (char ch : spaced + " ") {
        if (ch == ' ' || ch == '\t') {
            if (!w.empty()) words.push_back(w);
            w.clear();
        } else {
            w += ch;
        }
    }
    std::string prefix;
    if (!words.empty() && (words.front() == "GLOBAL_MEM" || words.front() == "__global")) {
        prefix = "g";
        words.erase(words.begin());
    } else if (!words.empty() && (words.front() == "LOCAL_MEM" || words.front() == "__local")) {
        prefix = "l";
        words.erase(words.begin());
    }
    const bool pointer = !words.empty() && words.back() == "*";
    if (pointer) words.pop_back();
    if (words.empty() || (!prefix.empty() && !pointer)) return "";
    std::string base;
    for (const auto &word : words)
        base += (base.empty() ? "" : " ") + word;
    static const std::pair<const char *, const char *> kCNames[] = {
        {"unsigned char", "uchar"},   {"signed char", "char"},
        {"unsigned short", "ushort"}, {"unsigned int", "uint"},
        {"unsigned", "uint"},         {"unsigned long", "ulong"},
        {"long long", "long"},        {"unsigned long long", "ulong"},
        {"long int", "long"},         {"unsigned long int", "ulong"},
    };
    for (const auto &[c, ours] : kCNames)
        if (base == c) base = ours;
    if (base.find(' ') != std::string::npos || !parse_scalar(base)) return "";
    return pointer ? prefix + base + "p" : base;
}

} // namespace

std::optional<Type> parse_type_name(const std::string &name) {
    if (auto s = parse_scalar(name)) return Type::scalar(*s);
    if (name.find_first_of(" \t*") != std::string::npos) {
        const std::string ours = from_c_spelling(name);
        return ours.empty() ? std::nullopt : parse_type_name(ours);
    }
    if (name.size() < 2 || name.back() != 'p') return std::nullopt;
    std::string base = name.substr(0, name.size() - 1);
    // "longp" is a long pointer, so the plain scalar is tried before a g/l prefix.
    if (auto s = parse_scalar(base); s && *s != Scalar::Bool) return Type::pointer(*s);
    if (base.size() > 1 && (base[0] == 'g' || base[0] == 'l')) {
        auto s = parse_scalar(base.substr(1));
        if (s && *s != Scalar::Bool)
            return Type::pointer(*s, base[0] == 'l' ? AddrSpace::Local : AddrSpace::Global);
    }
    return std::nullopt;
}

Scalar promote(Scalar a, Scalar b) {
    // C's integer promotion first: bool, 8- and 16-bit integers become int.
    auto widen = [](Scalar s) {
        return scalar_is_float(s) || scalar_bits(s) >= 32 ? s : Scalar::I32;
    };
    if (a == Scalar::Bool) a = Scalar::I32;
    if (b == Scalar::Bool) b = Scalar::I32;
    a = widen(a);
    b = widen(b);
    if (scalar_is_float(a) || scalar_is_float(b)) {
        if (a == Scalar::F64 || b == Scalar::F64) return Scalar::F64;
        return Scalar::F32;
    }
    if (scalar_bits(a) != scalar_bits(b)) return scalar_bits(a) > scalar_bits(b) ? a : b;
    return scalar_is_signed(a) ? b : a; // equal width: unsigned wins
}

Type demote_to_single(const Type &t) {
    Type out = t;
    if (!out.is_void() && out.elem == Scalar::F64) out.elem = Scalar::F32;
    return out;
}

} // namespace smelt::ir
