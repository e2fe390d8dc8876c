#include "primitives/combine.h"

#include "codegen/c_like.h"
#include "support/error.h"

namespace smelt::primitives {

namespace {

// A name no function of `user` can be emitted under: emitted names are the user's names (or the
// aliases they are imported under), with suffixes for further specialisations or clashes, so no
// user name may start with ours.
std::string fresh_name(const std::string &base, const ast::Module *user) {
    auto clashes = [&](const std::string &candidate) {
        if (!user) return false;
        for (const ast::Module *file : user->program_modules()) {
            for (const auto &fn : file->functions)
                if (fn->name.rfind(candidate, 0) == 0) return true;
            for (const auto &imp : file->imports) // requested under an alias
                for (const auto &n : imp.names)
                    if (n.alias.rfind(candidate, 0) == 0) return true;
        }
        return false;
    };
    std::string name = base;
    for (int k = 2; clashes(name); ++k)
        name = base + std::to_string(k);
    return name;
}

void check_one_line(const std::string &text, const std::string &what) {
    if (text.find_first_of("\n\r") != std::string::npos)
        throw UsageError(what + " must be one expression on one line, not '" + text + "'");
    if (text.find_first_not_of(" \t") == std::string::npos) throw UsageError(what + " is empty");
}

std::shared_ptr<ir::Module> compile_one(const std::string &file, const std::string &text,
                                        const std::string &name,
                                        std::map<std::string, Type> arg_types,
                                        const CompileOptions &options) {
    auto source = std::make_shared<SourceFile>(file, text);
    auto module = parse_source(source);
    return build_ir(*module, {{name, std::move(arg_types), {}}}, options);
}

} // namespace

CombineModules compile_combine(const std::string &expr, const std::string &expr_file,
                               const std::string &neutral, Scalar acc, const ast::Module *user,
                               const CompileOptions &options) {
    check_one_line(expr, "the combine expression " + expr_file);
    check_one_line(neutral, "the neutral element");
    CombineModules out;
    const std::string combine = fresh_name("reduce_ab", user);
    const std::string neutral_fn = fresh_name("reduce_neutral", user);
    out.combine =
        compile_one(expr_file, "def " + combine + "(a, b):\n    return " + expr + "\n", combine,
                    {{"a", Type::scalar(acc)}, {"b", Type::scalar(acc)}}, options);
    out.neutral =
        compile_one("<neutral>", "def " + neutral_fn + "():\n    return " + neutral + "\n",
                    neutral_fn, {}, options);
    const ir::Function *f = out.combine->find(combine);
    SMELT_INTERNAL_ASSERT(f, "combine function missing");
    if (!f->return_type.is_scalar() || f->return_type.is_bool())
        throw UsageError(
            "the combine expression '" + expr + "' gives " +
            (f->return_type.is_void() ? std::string("nothing") : f->return_type.str()) +
            ", not a number");
    const ir::Function *z = out.neutral->find(neutral_fn);
    SMELT_INTERNAL_ASSERT(z, "neutral function missing");
    if (!z->return_type.is_scalar())
        throw UsageError("the neutral element '" + neutral + "' is not a number");
    out.symbols.combine = codegen::function_symbol(*out.combine, combine);
    out.symbols.neutral = codegen::function_symbol(*out.neutral, neutral_fn);
    return out;
}

} // namespace smelt::primitives
