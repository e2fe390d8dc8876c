// Strict YAML configuration reading for the apps: typed values, range checks, unknown keys
// rejected, and every error located as "file:line:col: error: key.path: message".
//
//   ConfigNode root = ConfigNode::load_file("configs/md2d_lj.yaml");
//   ConfigNode sys = root.section("system");
//   sys.expect_keys({"n", "density"});
//   double rho = require<double>(sys, "density", Range<double>::positive());
//   int64_t n = optional<int64_t>(sys, "n", 100, Range<int64_t>::at_least(1));
#pragma once

// GCC 12 reports false -Wdangling-pointer warnings inside yaml-cpp 0.7's node headers.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdangling-pointer"
#include <yaml-cpp/yaml.h>
#pragma GCC diagnostic pop
#else
#include <yaml-cpp/yaml.h>
#endif

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace smelt::apps {

// A configuration error, located in the user's file. what() is the rendered message:
// "file:line:col: error: key: message" (":line:col" left out when the line is unknown).
class ConfigError : public std::runtime_error {
public:
    ConfigError(std::string file, int line, int column, std::string key, std::string message);
    const std::string &file() const { return file_; }
    int line() const { return line_; } // 1-based; 0 when unknown
    int column() const { return column_; }
    const std::string &key() const { return key_; } // "system.density", "" for the whole file
    const std::string &message() const { return message_; }

private:
    std::string file_;
    int line_;
    int column_;
    std::string key_;
    std::string message_;
};

// A value set on the command line over the file's (`--set key.path=value`, `--steps N`):
// applied to the parsed YAML before any schema check, so it is checked like a value of the file,
// and errors about it say where it came from.
struct ConfigOverride {
    std::string path;   // dotted key path: "integrator.steps"
    std::string value;  // YAML text: "200", "true", "[4, 4]"
    std::string origin; // how it was given, for messages: "--steps 200"
};

// Where a configuration came from: the file name used in messages, and the text (kept so a run
// can store the exact configuration next to its results; with overrides it ends with a comment
// line listing them).
struct ConfigSource {
    std::string file;
    std::string text;
    std::vector<ConfigOverride> overrides;
};

// The override of `--set key.path=value` (origin "--set key.path=value"). std::invalid_argument
// when there is no '=' or the key is not a dotted path of names (letters, digits, '_').
ConfigOverride parse_set_option(const std::string &text);

// The override that set `key_path` or a section above it ("system.cells[1]" is set by
// "system.cells"); null when the file's value stands.
const ConfigOverride *find_override(const ConfigSource &source, std::string_view key_path);

// One node of a parsed configuration with its key path, so errors can name it.
class ConfigNode {
public:
    // Parse errors become ConfigError at the parser's position. `overrides` are applied in
    // order (creating missing sections); a path through a value that is not a mapping, or a
    // value that is not valid YAML, is a ConfigError naming the override.
    static ConfigNode load_file(const std::string &path,
                                std::vector<ConfigOverride> overrides = {});
    static ConfigNode load_string(std::string text, std::string file_name,
                                  std::vector<ConfigOverride> overrides = {});

    ConfigNode(const ConfigNode &) = default;
    // Rebinds this handle. (YAML::Node's own operator= would overwrite the referenced node in the
    // document with the other one.)
    ConfigNode &operator=(const ConfigNode &other);

    const std::string &path() const { return path_; }
    const ConfigSource &source() const { return *source_; }
    const YAML::Node &yaml() const { return node_; }
    bool is_map() const { return node_.IsMap(); }
    bool is_sequence() const { return node_.IsSequence(); }

    // The full path of a child key: "system" + "density" -> "system.density".
    std::string key_path(std::string_view key) const;
    bool has(std::string_view key) const;
    // A child that must exist: a missing key is a ConfigError naming it.
    ConfigNode at(std::string_view key) const;
    std::optional<ConfigNode> find(std::string_view key) const;
    // A child mapping that must exist / that may be left out (then an empty mapping).
    ConfigNode section(std::string_view key) const;
    ConfigNode optional_section(std::string_view key) const;
    // The items of a sequence, with paths "key[0]", "key[1]", ...
    std::vector<ConfigNode> elements() const;

    // Every key of this mapping must be one of `allowed`, and appear once.
    void expect_keys(std::initializer_list<std::string_view> allowed) const;
    void expect_keys(const std::vector<std::string_view> &allowed) const;

    // This node's value as T (bool, int, int64_t, uint64_t, double, std::string,
    // std::vector<T>); a value of the wrong kind is a ConfigError naming the key.
    template <class T> T as() const;

    // Errors located at this node's value, or at `key`'s value (at this node's own key when `key`
    // is absent, e.g. "system:" for a missing system.density).
    [[noreturn]] void fail(const std::string &message) const;
    [[noreturn]] void fail_at(std::string_view key, const std::string &message) const;
    // An error located at this node but naming another key (one that is missing below it).
    [[noreturn]] void fail_as(const std::string &key_path, const std::string &message) const;

private:
    ConfigNode(YAML::Node node, std::string path, YAML::Mark mark,
               std::shared_ptr<const ConfigSource> source)
        : node_(std::move(node)), path_(std::move(path)), mark_(mark), source_(std::move(source)) {}
    static ConfigNode parse(std::shared_ptr<const ConfigSource> source);
    [[noreturn]] void fail_mark(const YAML::Mark &mark, const std::string &key,
                                const std::string &message) const;

    YAML::Node node_;
    std::string path_;
    YAML::Mark mark_;     // this node's value: where errors about the value point
    YAML::Mark key_mark_; // the key that introduced it ("system:"): where missing keys point
    std::shared_ptr<const ConfigSource> source_;
};

// An error about a dotted key path ("system.density") of an already parsed source, located at
// that key's value when the file has it, else at its nearest enclosing section (unlocated, with
// its origin, when an override set it). For checks made after parsing (e.g. a random lattice
// that cannot be placed).
[[noreturn]] void fail_at_path(const ConfigSource &source, std::string_view dotted_path,
                               const std::string &message);

// Scalar conversions (strict: "3.5" is not an int, "yes" is not a bool, quoted "3" is not a
// number, numbers must be finite).
void convert_value(const ConfigNode &node, bool &out);
void convert_value(const ConfigNode &node, int &out);
void convert_value(const ConfigNode &node, int64_t &out);
void convert_value(const ConfigNode &node, uint64_t &out);
void convert_value(const ConfigNode &node, double &out);
void convert_value(const ConfigNode &node, std::string &out);

template <class T> void convert_value(const ConfigNode &node, std::vector<T> &out) {
    if (!node.is_sequence()) node.fail("expected a list, e.g. [1, 2]");
    out.clear();
    for (const ConfigNode &item : node.elements())
        out.push_back(item.as<T>());
}

template <class T> T ConfigNode::as() const {
    T value{};
    convert_value(*this, value);
    return value;
}

// An allowed interval. Violations read "must be > 0 (got -1)".
template <class T> struct Range {
    std::optional<T> lo, hi;
    bool lo_open = false, hi_open = false;

    static Range positive() { return {T(0), std::nullopt, true, false}; }
    static Range non_negative() { return {T(0), std::nullopt, false, false}; }
    static Range above(T v) { return {v, std::nullopt, true, false}; }
    static Range at_least(T v) { return {v, std::nullopt, false, false}; }
    static Range between(T a, T b) { return {a, b, false, false}; }
    Range and_at_most(T v) const { return {lo, v, lo_open, false}; }
    Range and_below(T v) const { return {lo, v, lo_open, true}; }

    bool contains(T v) const {
        if (lo && (lo_open ? !(v > *lo) : !(v >= *lo))) return false;
        if (hi && (hi_open ? !(v < *hi) : !(v <= *hi))) return false;
        return true;
    }
    std::string describe() const; // "> 0", ">= 1", "in [1, 10]", "in (0, 1)"
};

std::string format_number(double v); // shortest round-trip spelling, "0.8", "-1", "1e+06"
std::string format_number(int64_t v);

template <class T> std::string Range<T>::describe() const {
    auto num = [](T v) {
        if constexpr (std::is_floating_point_v<T>)
            return format_number(double(v));
        else
            return format_number(int64_t(v));
    };
    if (lo && hi)
        return std::string("in ") + (lo_open ? "(" : "[") + num(*lo) + ", " + num(*hi) +
               (hi_open ? ")" : "]");
    if (lo) return std::string(lo_open ? "> " : ">= ") + num(*lo);
    if (hi) return std::string(hi_open ? "< " : "<= ") + num(*hi);
    return "any value";
}

template <class T> T require(const ConfigNode &node, std::string_view key) {
    return node.at(key).as<T>();
}

template <class T> T require(const ConfigNode &node, std::string_view key, const Range<T> &range) {
    ConfigNode child = node.at(key);
    T v = child.as<T>();
    if (!range.contains(v))
        child.fail("must be " + range.describe() + " (got " + child.yaml().Scalar() + ")");
    return v;
}

template <class T> T optional(const ConfigNode &node, std::string_view key, T fallback) {
    auto child = node.find(key);
    return child ? child->as<T>() : fallback;
}

template <class T>
T optional(const ConfigNode &node, std::string_view key, T fallback, const Range<T> &range) {
    return node.has(key) ? require<T>(node, key, range) : fallback;
}

// A string from a fixed set; anything else reads "must be one of a | b | c (got 'x')".
std::string require_choice(const ConfigNode &node, std::string_view key,
                           std::initializer_list<std::string_view> choices);
std::string optional_choice(const ConfigNode &node, std::string_view key, std::string_view fallback,
                            std::initializer_list<std::string_view> choices);
// The same with a set known at run time (the engine's backend families).
std::string require_choice(const ConfigNode &node, std::string_view key,
                           const std::vector<std::string> &choices);
std::string optional_choice(const ConfigNode &node, std::string_view key, std::string_view fallback,
                            const std::vector<std::string> &choices);

} // namespace smelt::apps
