// Program: a kernel file parsed once, shared by the primitives made from it.
#include "primitives/program_data.h"
#include "smelt.h"

namespace smelt {

Program::Program(std::shared_ptr<const primitives::ProgramData> data) : data_(std::move(data)) {}

Program Program::from_file(const std::string &path) {
    auto data = std::make_shared<primitives::ProgramData>();
    data->file = read_source_file(path);
    data->module = parse_source(data->file);
    return Program(std::move(data));
}

Program Program::from_source(std::string name, std::string text, int line_offset) {
    auto data = std::make_shared<primitives::ProgramData>();
    data->file = std::make_shared<SourceFile>(std::move(name), std::move(text), line_offset);
    data->module = parse_source(data->file);
    return Program(std::move(data));
}

std::vector<Diagnostic> Program::check(const std::vector<std::string> &funcs,
                                       Precision precision) const {
    CompileOptions options;
    options.precision = precision;
    return check_functions(*data_->module, funcs, options);
}

const std::string &Program::name() const {
    return data_->file->name();
}

std::vector<std::string> Program::function_names() const {
    std::vector<std::string> out;
    for (const auto &fn : data_->module->functions)
        out.push_back(fn->name);
    return out;
}

bool Program::has_function(const std::string &name) const {
    return data_->module->find_function(name) != nullptr;
}

} // namespace smelt
