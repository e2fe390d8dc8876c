#include "config_yaml.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

namespace smelt::apps {

namespace {

std::string render(const std::string &file, int line, int column, const std::string &key,
                   const std::string &message) {
    std::string out = file;
    if (line > 0) out += ":" + std::to_string(line) + ":" + std::to_string(column);
    out += ": error: ";
    if (!key.empty()) out += key + ": ";
    return out + message;
}

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
            diag = up;
        }
    }
    return row[b.size()];
}

template <class Items> std::string join(const Items &items, const char *sep) {
    std::string out;
    for (std::string_view s : items) {
        if (!out.empty()) out += sep;
        out += s;
    }
    return out;
}

// The scalar text of a node that must hold one value of the kind `what`.
const std::string &scalar_text(const ConfigNode &node, const char *what) {
    const YAML::Node &y = node.yaml();
    if (y.IsNull()) node.fail(std::string("expected ") + what + ", got nothing");
    if (y.IsSequence()) node.fail(std::string("expected ") + what + ", got a list");
    if (y.IsMap()) node.fail(std::string("expected ") + what + ", got a mapping");
    return y.Scalar();
}

// A quoted scalar ("3") is a string in YAML, never a number or a bool.
void reject_quoted(const ConfigNode &node, const char *what) {
    if (node.yaml().Tag() == "!")
        node.fail(std::string("expected ") + what + ", got the quoted string '" +
                  node.yaml().Scalar() + "'");
}

// True when `key` is `path` or lies below it ("a.b" is below "a", so is "a[0]").
bool at_or_below(std::string_view key, std::string_view path) {
    if (key.size() < path.size() || key.substr(0, path.size()) != path) return false;
    return key.size() == path.size() || key[path.size()] == '.' || key[path.size()] == '[';
}

std::string origin_note(const ConfigOverride &o) {
    return " (set on the command line: " + o.origin + ")";
}

std::vector<std::string> split_path(const std::string &path) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (true) {
        size_t dot = path.find('.', start);
        parts.push_back(path.substr(start, dot - start));
        if (dot == std::string::npos) return parts;
        start = dot + 1;
    }
}

// Sets root[path] = value, creating the sections on the way. (YAML::Node assignment overwrites
// the referenced node, so the walk rebinds handles with reset().)
void apply_override(YAML::Node root, const ConfigOverride &o, const std::string &file) {
    auto fail = [&](const std::string &key, const std::string &message) {
        throw ConfigError(file, 0, 0, key, message + origin_note(o));
    };
    YAML::Node value;
    try {
        value = YAML::Load(o.value);
    } catch (const YAML::ParserException &e) {
        fail(o.path, "invalid YAML value '" + o.value + "': " + e.msg);
    }
    const std::vector<std::string> parts = split_path(o.path);
    YAML::Node node = root;
    std::string walked;
    for (size_t k = 0; k + 1 < parts.size(); ++k) {
        walked += (walked.empty() ? "" : ".") + parts[k];
        YAML::Node child = node[parts[k]];
        if (!child.IsDefined() || child.IsNull()) {
            node[parts[k]] = YAML::Node(YAML::NodeType::Map);
            child.reset(node[parts[k]]);
        } else if (!child.IsMap()) {
            fail(walked, "is not a section, so " + o.path + " cannot be set");
        }
        node.reset(child);
    }
    node[parts.back()] = value;
}

} // namespace

const ConfigOverride *find_override(const ConfigSource &source, std::string_view key_path) {
    const ConfigOverride *found = nullptr;
    for (const ConfigOverride &o : source.overrides) // the last one wins, as when applied
        if (at_or_below(key_path, o.path)) found = &o;
    return found;
}

ConfigOverride parse_set_option(const std::string &text) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos)
        throw std::invalid_argument("--set " + text + ": expected key.path=value");
    ConfigOverride o{text.substr(0, eq), text.substr(eq + 1), "--set " + text};
    bool ok = !o.path.empty() && o.path.front() != '.' && o.path.back() != '.' &&
              o.path.find("..") == std::string::npos;
    for (char c : o.path)
        ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.');
    if (!ok)
        throw std::invalid_argument("--set " + text +
                                    ": the key must be a dotted path of names, e.g. output.vtk");
    return o;
}

ConfigError::ConfigError(std::string file, int line, int column, std::string key,
                         std::string message)
    : std::runtime_error(render(file, line, column, key, message)), file_(std::move(file)),
      line_(line), column_(column), key_(std::move(key)), message_(std::move(message)) {}

namespace {

// The line (1-based) of the second document's start in a YAML text: the second "---" line, or
// the first one after content (a first document without a marker). 0 when there is none.
int second_document_line(const std::string &text) {
    std::istringstream in(text);
    std::string line;
    int number = 0, markers = 0;
    bool content = false;
    while (std::getline(in, line)) {
        ++number;
        const bool marker = line.rfind("---", 0) == 0 &&
                            (line.size() == 3 || std::isspace(static_cast<unsigned char>(line[3])));
        if (marker) {
            if (++markers == 2 || content) return number;
            continue;
        }
        const size_t first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line[first] != '#') content = true;
    }
    return 0;
}

} // namespace

ConfigNode ConfigNode::parse(std::shared_ptr<const ConfigSource> source) {
    YAML::Node root;
    try {
        std::vector<YAML::Node> documents = YAML::LoadAll(source->text);
        if (!documents.empty()) root = documents.front();
        // Keys after a second "---" would be dropped without a word: the run would not be the
        // one the file describes.
        if (documents.size() > 1) {
            const int line = second_document_line(source->text);
            throw ConfigError(source->file, line, line > 0 ? 1 : 0, "",
                              "a second YAML document ('---'): a configuration is one document; "
                              "remove the '---' line or move its keys into the first document");
        }
    } catch (const YAML::ParserException &e) {
        throw ConfigError(source->file, e.mark.line + 1, e.mark.column + 1, "",
                          "invalid YAML: " + e.msg);
    }
    ConfigNode node(root, "", YAML::Mark(), source);
    if (root.IsNull()) node.fail("the configuration is empty");
    if (!root.IsMap()) node.fail("the configuration must be a mapping of sections (key: value)");
    for (const ConfigOverride &o : source->overrides)
        apply_override(root, o, source->file);
    return node;
}

namespace {

std::shared_ptr<const ConfigSource> make_source(std::string file, std::string text,
                                                std::vector<ConfigOverride> overrides) {
    if (!overrides.empty()) {
        text += "\n# command-line overrides:";
        for (const ConfigOverride &o : overrides)
            text += " " + o.origin;
        text += "\n";
    }
    return std::make_shared<const ConfigSource>(
        ConfigSource{std::move(file), std::move(text), std::move(overrides)});
}

} // namespace

ConfigNode ConfigNode::load_file(const std::string &path, std::vector<ConfigOverride> overrides) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw ConfigError(path, 0, 0, "",
                          "is a directory, not a configuration file (give the path of a .yaml "
                          "file)");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ConfigError(path, 0, 0, "", std::string("cannot open: ") + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    return parse(make_source(path, text.str(), std::move(overrides)));
}

ConfigNode ConfigNode::load_string(std::string text, std::string file_name,
                                   std::vector<ConfigOverride> overrides) {
    return parse(make_source(std::move(file_name), std::move(text), std::move(overrides)));
}

ConfigNode &ConfigNode::operator=(const ConfigNode &other) {
    if (this != &other) {
        node_.reset(other.node_);
        path_ = other.path_;
        mark_ = other.mark_;
        key_mark_ = other.key_mark_;
        source_ = other.source_;
    }
    return *this;
}

std::string ConfigNode::key_path(std::string_view key) const {
    return path_.empty() ? std::string(key) : path_ + "." + std::string(key);
}

bool ConfigNode::has(std::string_view key) const {
    return node_.IsMap() && node_[std::string(key)].IsDefined();
}

std::optional<ConfigNode> ConfigNode::find(std::string_view key) const {
    if (!node_.IsMap()) fail("expected a mapping (key: value), e.g. " + std::string(key) + ": ...");
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        if (!it->first.IsScalar() || it->first.Scalar() != key) continue;
        const std::string path = key_path(key);
        // A value from the command line has no place in the file.
        const bool overridden = find_override(*source_, path) != nullptr;
        ConfigNode child(it->second, path, overridden ? YAML::Mark::null_mark() : it->second.Mark(),
                         source_);
        child.key_mark_ = it->first.Mark();
        return child;
    }
    return std::nullopt;
}

ConfigNode ConfigNode::at(std::string_view key) const {
    auto child = find(key);
    if (!child) fail_mark(key_mark_, key_path(key), "required key is missing");
    return *child;
}

ConfigNode ConfigNode::section(std::string_view key) const {
    ConfigNode child = at(key);
    if (!child.is_map()) child.fail("expected a mapping of keys (key: value)");
    return child;
}

ConfigNode ConfigNode::optional_section(std::string_view key) const {
    auto child = find(key);
    if (!child) {
        ConfigNode empty(YAML::Node(YAML::NodeType::Map), key_path(key), key_mark_, source_);
        empty.key_mark_ = key_mark_;
        return empty;
    }
    if (!child->is_map()) child->fail("expected a mapping of keys (key: value)");
    return *child;
}

std::vector<ConfigNode> ConfigNode::elements() const {
    std::vector<ConfigNode> out;
    if (!node_.IsSequence()) return out;
    for (size_t i = 0; i < node_.size(); ++i) {
        YAML::Node item = node_[i];
        const std::string path = path_ + "[" + std::to_string(i) + "]";
        const bool overridden = find_override(*source_, path) != nullptr;
        out.push_back(
            ConfigNode(item, path, overridden ? YAML::Mark::null_mark() : item.Mark(), source_));
    }
    return out;
}

void ConfigNode::expect_keys(std::initializer_list<std::string_view> allowed) const {
    expect_keys(std::vector<std::string_view>(allowed));
}

void ConfigNode::expect_keys(const std::vector<std::string_view> &allowed) const {
    if (!node_.IsMap()) fail("expected a mapping of keys (key: value)");
    std::set<std::string> seen;
    for (auto it = node_.begin(); it != node_.end(); ++it) {
        // A copy: `it->first` is a member of the temporary that operator-> returns, so a
        // reference to it would dangle once this statement ends.
        const YAML::Node k = it->first;
        if (!k.IsScalar()) fail_mark(k.Mark(), path_, "keys must be plain names");
        const std::string &name = k.Scalar();
        if (!seen.insert(name).second) fail_mark(k.Mark(), key_path(name), "duplicate key");
        if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) continue;
        std::string hint;
        for (std::string_view a : allowed)
            if (edit_distance(a, name) <= 2) hint = " (did you mean '" + std::string(a) + "'?)";
        fail_mark(k.Mark(), key_path(name),
                  "unknown key" + hint + "; allowed keys: " + join(allowed, ", "));
    }
}

void ConfigNode::fail(const std::string &message) const {
    fail_mark(mark_, path_, message);
}

void ConfigNode::fail_at(std::string_view key, const std::string &message) const {
    auto child = has(key) ? find(key) : std::nullopt;
    fail_mark(child ? child->mark_ : key_mark_, key_path(key), message);
}

void ConfigNode::fail_as(const std::string &key_path, const std::string &message) const {
    fail_mark(key_mark_, key_path, message);
}

void fail_at_path(const ConfigSource &source, std::string_view dotted_path,
                  const std::string &message) {
    if (const ConfigOverride *o = find_override(source, dotted_path))
        throw ConfigError(source.file, 0, 0, std::string(dotted_path), message + origin_note(*o));
    ConfigNode node = ConfigNode::load_string(source.text, source.file);
    std::string_view rest = dotted_path;
    while (true) {
        size_t dot = rest.find('.');
        std::string_view part = rest.substr(0, dot);
        auto child = node.is_map() ? node.find(part) : std::nullopt;
        if (!child) node.fail_as(std::string(dotted_path), message);
        if (dot == std::string_view::npos) child->fail(message);
        node = *child;
        rest = rest.substr(dot + 1);
    }
}

void ConfigNode::fail_mark(const YAML::Mark &mark, const std::string &key,
                           const std::string &message) const {
    // A key the command line set, or one it created (an unknown key given by --set: its node
    // has no mark, and an override lies at or below it).
    const ConfigOverride *o = find_override(*source_, key);
    if (!o && mark.is_null())
        for (const ConfigOverride &candidate : source_->overrides)
            if (at_or_below(candidate.path, key)) o = &candidate;
    if (o) throw ConfigError(source_->file, 0, 0, key, message + origin_note(*o));
    int line = mark.is_null() ? 0 : mark.line + 1;
    int column = mark.is_null() ? 0 : mark.column + 1;
    throw ConfigError(source_->file, line, column, key, message);
}

void convert_value(const ConfigNode &node, bool &out) {
    const std::string &s = scalar_text(node, "true or false");
    reject_quoted(node, "true or false");
    if (s == "true" || s == "True" || s == "TRUE")
        out = true;
    else if (s == "false" || s == "False" || s == "FALSE")
        out = false;
    else
        node.fail("expected true or false (got " + s + ")");
}

void convert_value(const ConfigNode &node, int64_t &out) {
    const std::string &s = scalar_text(node, "an integer");
    reject_quoted(node, "an integer");
    const char *b = s.data(), *e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, out);
    if (ec == std::errc::result_out_of_range) node.fail("integer out of range (got " + s + ")");
    if (ec != std::errc() || p != e || b == e) node.fail("expected an integer (got " + s + ")");
}

void convert_value(const ConfigNode &node, int &out) {
    int64_t v = 0;
    convert_value(node, v);
    if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
        node.fail("integer out of range (got " + node.yaml().Scalar() + ")");
    out = static_cast<int>(v);
}

void convert_value(const ConfigNode &node, uint64_t &out) {
    const std::string &s = scalar_text(node, "a non-negative integer");
    reject_quoted(node, "a non-negative integer");
    const char *b = s.data(), *e = s.data() + s.size();
    if (b != e && *b == '+') ++b;
    auto [p, ec] = std::from_chars(b, e, out);
    if (ec == std::errc::result_out_of_range) node.fail("integer out of range (got " + s + ")");
    if (ec != std::errc() || p != e || b == e)
        node.fail("expected a non-negative integer (got " + s + ")");
}

void convert_value(const ConfigNode &node, double &out) {
    const std::string &s = scalar_text(node, "a number");
    reject_quoted(node, "a number");
    // strtod alone would also take "inf", "nan", hex floats and leading blanks.
    bool looks_numeric = !s.empty() && (std::isdigit(static_cast<unsigned char>(s[0])) ||
                                        s[0] == '-' || s[0] == '+' || s[0] == '.');
    if (looks_numeric && s.find_first_of("xXpP") == std::string::npos) {
        errno = 0;
        char *end = nullptr;
        out = std::strtod(s.c_str(), &end);
        if (end == s.c_str() + s.size() && end != s.c_str()) {
            if (!std::isfinite(out) || errno == ERANGE)
                node.fail("expected a finite number (got " + s + ")");
            return;
        }
    }
    node.fail("expected a number (got " + s + ")");
}

void convert_value(const ConfigNode &node, std::string &out) {
    out = scalar_text(node, "a string");
}

std::string format_number(double v) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v); // shortest round-trip spelling
    return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

std::string format_number(int64_t v) {
    return std::to_string(v);
}

namespace {

template <class Choices>
std::string choice(const ConfigNode &node, std::string_view key, const Choices &choices) {
    ConfigNode child = node.at(key);
    std::string s = child.as<std::string>();
    if (std::find(choices.begin(), choices.end(), s) == choices.end())
        child.fail("must be one of " + join(choices, " | ") + " (got '" + s + "')");
    return s;
}

} // namespace

std::string require_choice(const ConfigNode &node, std::string_view key,
                           std::initializer_list<std::string_view> choices) {
    return choice(node, key, choices);
}

std::string require_choice(const ConfigNode &node, std::string_view key,
                           const std::vector<std::string> &choices) {
    return choice(node, key, choices);
}

std::string optional_choice(const ConfigNode &node, std::string_view key, std::string_view fallback,
                            std::initializer_list<std::string_view> choices) {
    return node.has(key) ? choice(node, key, choices) : std::string(fallback);
}

std::string optional_choice(const ConfigNode &node, std::string_view key, std::string_view fallback,
                            const std::vector<std::string> &choices) {
    return node.has(key) ? choice(node, key, choices) : std::string(fallback);
}

} // namespace smelt::apps
