// Internal to lower/: the state of lowering one module and one function specialisation.
// lower_module.cpp drives it; lower_expr.cpp, lower_call.cpp and lower_stmt.cpp hold the rules.
#pragma once

#include "frontend/ast.h"
#include "ir/ir.h"
#include "lower/builtins.h"
#include "lower/const_eval.h"
#include "lower/request.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace smelt::lower {

// A typed expression. `weak` marks an untyped numeric literal (always a Const whose type is
// long or the default float): it takes the type of whatever it meets (x[i] * 2.0 stays float).
struct TExpr {
    ir::ExprPtr e;
    bool weak = false;
    const Type &type() const { return e->type; }
};

// True when evaluating `e` twice is the same as once: no user calls, no atomics.
bool is_pure(const ir::Expr &e);

// The type an operation between an integer of type `s` and the integer literal `v` gets: C's
// integer promotion of `s` (bool, 8- and 16-bit become int), widened to long when `v` does not
// fit, so the literal keeps its Python value (u > -1 compares with -1, not with UINT_MAX).
Scalar fit_int_literal(Scalar s, int64_t v);

// `v` represented in type `s` as the IR stores constants (wrapped to the width, sign-extended).
int64_t canonical_int(Scalar s, int64_t v);

// Thrown after a located error has been reported, to abandon the current statement. Lowering
// continues with the next statement so one run reports every independent mistake.
struct StatementFailed {};

class ModuleLowerer;

// Why `name`, bound by an import (b.import set) in a kernel's file, cannot be used by a kernel:
// its module is no kernel file that was found (naming the directories searched), or it is none
// of the functions and numeric constants of the kernel file it comes from.
std::string import_problem(const std::string &name, const ast::Binding &b);

struct CalleeRef {
    std::string name; // emitted name of the specialisation
    Type result;
    std::vector<Type> params;
};

class FunctionLowerer {
public:
    FunctionLowerer(ModuleLowerer &mod, const ast::FunctionDef &fn, std::vector<Type> params,
                    std::optional<Type> declared_result, std::string emitted_name);
    std::shared_ptr<ir::Function> run();

    // lower_expr.cpp
    TExpr expr(const ast::Expr &e);
    ir::ExprPtr to_bool(const TExpr &x, SourceLoc loc);
    ir::ExprPtr convert(const TExpr &x, const Type &to, SourceLoc loc); // checked by caller
    // Implicit conversion where a value meets a declared type (assignment to a typed local,
    // argument passing, return): numbers convert, except a float into an integer, which must be
    // written int(...); arrays must match their element type. `what` names the target.
    ir::ExprPtr implicit(const TExpr &x, const Type &to, SourceLoc loc, const std::string &what);
    // The one rule for locals, arguments, returns and array elements: a float value is never
    // stored into an integer silently (CPython would keep the float); int(...) says so.
    void reject_float_to_int(const TExpr &x, const Type &to, SourceLoc loc,
                             const std::string &what);
    TExpr arith(const std::string &op, TExpr a, TExpr b, SourceLoc loc);
    TExpr compare(const std::string &op, TExpr a, TExpr b, SourceLoc loc);
    Type common_numeric(const TExpr &a, const TExpr &b, SourceLoc loc);
    TExpr resolve_weak(TExpr x); // a lone literal becomes long / the default float
    struct Place {
        ir::VarPtr base;
        std::vector<ir::ExprPtr> indices;
    };
    Place subscript(const ast::Expr &e);
    // Extent `dim` of the matrix `array` names (x.shape[k], len(x)) as an integer literal;
    // located errors for anything else. `what` is the construct as written, for messages.
    TExpr extent(const ast::Expr &array, int64_t dim, const std::string &what);
    TExpr shape_subscript(const ast::Expr &e); // x.shape[k]

    // lower_call.cpp
    TExpr call(const ast::Expr &e);
    TExpr builtin_call(const ast::Expr &e, const Builtin &builtin);
    // lower_external.cpp
    TExpr external_call(const ast::Expr &e, const External &x);

    // lower_stmt.cpp
    void block(const ast::Block &b, ir::Block &out);
    void stmt(const ast::Stmt &s, ir::Block &out);

    // lower_parpy.cpp: ParPy's loop-parallel syntax (docs/LANGUAGE.md, "Loop-parallel
    // functions"), in files that import ParPy's module (ast::Module::parpy_names).
    // `e` is a call NAME.attr(...) with NAME bound to ParPy's module (attr == `attr` if given).
    bool is_parpy_call(const ast::Expr &e, const char *attr = nullptr) const;
    TExpr parpy_call(const ast::Expr &e);
    // A statement `parpy.label('N')`: records the label for the next statement.
    bool take_label_statement(const ast::Stmt &s);
    // The labels of the statement being lowered, consumed by the first loop it makes.
    std::vector<std::string> take_labels();
    // Fails at the first pending label's place when the statement used none.
    void reject_unused_labels();
    // `target[...slices...] = value` (or op=): loops over the slices; false when `s` has none.
    bool slice_statement(const ast::Stmt &s, ir::Block &out);
    // The value the entry of a loop-parallel function is specialised on for parameter `v`.
    std::optional<int64_t> specialised_value(const ir::Var &v) const;
    // The extents of array `v` when known here (matrices; the loop entry's array parameters).
    std::optional<std::vector<int64_t>> extents_of(const ir::Var &v) const;

    [[noreturn]] void fail(SourceLoc loc, const std::string &msg);
    // The file whose names this function sees (its own file's functions, constants, imports).
    const ast::Module &scope() const;
    Scalar default_float() const;
    const CompileOptions &options() const;
    bool gpu_builtins_allowed() const; // backend is opencl, cuda, or "" (check for any)

private:
    void assign(const ast::Expr &target, const ast::Expr &value_node, TExpr value, SourceLoc loc,
                ir::Block &out);
    void declare(const ast::Stmt &s, ir::Block &out);
    void for_range(const ast::Stmt &s, ir::Block &out);
    void store_to_var(ir::VarPtr v, TExpr value, SourceLoc loc, ir::Block &out);
    ir::VarPtr new_var(const std::string &name, const Type &t, ir::Var::Role role);
    std::string hidden_name(const std::string &base);
    void finish_returns();

    ModuleLowerer &mod_;
    const ast::FunctionDef &fn_;
    DiagnosticSink &sink_;
    std::shared_ptr<ir::Function> out_;
    std::optional<Type> declared_result_;
    std::map<std::string, ir::VarPtr> vars_;
    std::set<std::string> assigned_anywhere_; // every name the body assigns
    std::set<std::string> poisoned_;          // names whose defining statement failed
    std::set<std::string> used_names_;
    // declare('LOCAL_MEM float') variables: held as a LOCAL_MEM matrix of one element (the only
    // form local memory takes in the IR), read and written as that element.
    std::set<const ir::Var *> local_scalars_;
    int loop_depth_ = 0;
    // ParPy: labels given by parpy.label statements, waiting for the statement they label
    // (pending), and those of the statement being lowered (current).
    struct Label {
        std::string name;
        SourceLoc loc;
    };
    std::vector<Label> pending_labels_, current_labels_;
    // Statements a parpy reduction inside an expression needs before the statement holding
    // it (the reduction loop); null where none may be placed (a while condition).
    ir::Block *hoisted_ = nullptr;
    // What the slices of an operand stand for, innermost context last: loop counters of a slice
    // statement (index = lo + k * step) or of a reduction (index = k itself).
    struct SliceBinding {
        ir::ExprPtr index;
        bool absolute = false;
        std::optional<int64_t> extent;
    };
    std::vector<std::vector<SliceBinding>> slice_contexts_;
    ir::ExprPtr slice_index(const ir::VarPtr &base, size_t axis, const ast::Expr &slice,
                            size_t slice_number, size_t slice_count);
    struct SliceRange {
        ir::ExprPtr lo, hi, step; // long
        std::optional<int64_t> extent;
    };
    SliceRange slice_range(const ir::Var &base, size_t axis, const ast::Expr &slice);
    TExpr parpy_reduce(const ast::Expr &e, const std::string &op);
    struct ReturnSite {
        std::optional<TExpr> value;
        SourceLoc loc;
    };
    std::vector<ReturnSite> returns_;
    friend class ModuleLowerer;
};

class ModuleLowerer {
public:
    ModuleLowerer(const ast::Module &m, const CompileOptions &opts, DiagnosticSink &sink);

    // Lowers a requested function. `given` types unannotated parameters (JIT).
    void request(const KernelRequest &req);
    // Lowers every requested function registered by request(), in request order.
    void lower_pending();
    // The specialisation of `fn` for these argument types (lowered on first use). A local
    // matrix argument gives its parameter the matrix's type, also where the parameter is
    // annotated as a pointer to its element type (Compyle's `doublep` is a plain `double*`).
    CalleeRef specialise(const ast::FunctionDef &fn, const std::vector<TExpr> &args,
                         const std::vector<SourceLoc> &arg_locs, SourceLoc loc,
                         FunctionLowerer &caller);
    // The module constant `name` means in `scope`, as an untyped literal (nullopt when it names
    // no constant there).
    std::optional<TExpr> constant(const ast::Module &scope, const std::string &name);
    std::shared_ptr<ir::Module> result();
    // Records that the module calls `x` (its header and code go into the generated source).
    void use_external(const External &x);

    const ast::Module &ast() const { return ast_; }
    const CompileOptions &options() const { return opts_; }
    DiagnosticSink &sink() { return sink_; }
    bool single() const { return opts_.precision == Precision::Single; }

private:
    struct Spec {
        std::string emitted;
        std::vector<Type> params;
        std::optional<Type> result; // known once lowered, or declared
        bool done = false;
    };
    CalleeRef lower_spec(const ast::FunctionDef &fn, std::vector<Type> params,
                         std::optional<Type> declared, const std::string &emitted);
    // A name no specialisation has been emitted under and no other function of the program
    // claims, derived from fn's name.
    std::string fresh_emitted_name(const ast::FunctionDef &fn);

    const ast::Module &ast_;
    CompileOptions opts_;
    DiagnosticSink &sink_;
    std::map<const ast::FunctionDef *, std::vector<Spec>> specs_; // specialisations per function
    std::set<std::string> emitted_names_;  // every name a specialisation is emitted under
    std::set<std::string> function_names_; // every def name of every file of the program
    std::map<const ast::Constant *, std::optional<TExpr>> constants_;
    std::set<const ast::FunctionDef *> reported_parse_errors_;
    std::vector<std::string> in_progress_;
    struct Pending {
        const ast::FunctionDef *fn;
        std::string emitted; // the requested name (an alias, for an imported function)
    };
    std::vector<Pending> pending_;
    std::vector<std::shared_ptr<ir::Function>> done_;      // callees first
    std::vector<std::shared_ptr<const SourceFile>> files_; // of the lowered functions
    std::vector<ir::ExternalDecl> externals_;              // called, in first-call order
};

} // namespace smelt::lower
