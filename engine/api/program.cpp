// Program: a kernel file parsed once (with the kernel files it imports), shared by the
// primitives made from it.
#include "primitives/program_data.h"
#include "smelt.h"

namespace smelt {

namespace {

std::shared_ptr<const primitives::ProgramData> make(std::shared_ptr<const SourceFile> file,
                                                    const ProgramOptions &options) {
    auto data = std::make_shared<primitives::ProgramData>();
    data->file = file;
    data->module =
        parse_program(std::move(file), options.kernel_path, options.constants, options.externals);
    return data;
}

} // namespace

Program::Program(std::shared_ptr<const primitives::ProgramData> data) : data_(std::move(data)) {}

Program Program::from_file(const std::string &path, const ProgramOptions &options) {
    return Program(make(read_source_file(path), options));
}

Program Program::from_source(std::string name, std::string text, int line_offset) {
    return from_source(std::move(name), std::move(text), ProgramOptions{}, line_offset);
}

Program Program::from_source(std::string name, std::string text, const ProgramOptions &options,
                             int line_offset) {
    return Program(
        make(std::make_shared<SourceFile>(std::move(name), std::move(text), line_offset), options));
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
    return data_->module->resolve_function(name) != nullptr;
}

std::vector<std::string> Program::imported_files() const {
    std::vector<std::string> out;
    for (const auto &m : data_->module->imported_modules)
        out.push_back(m->source->name());
    return out;
}

} // namespace smelt
