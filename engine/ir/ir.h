// The typed IR: what the frontend hands to passes and code generators.
//
// Every expression has a concrete type, and operand types already agree (the frontend inserted
// the casts). Operators carry Python's meaning (FloorDiv and Mod follow the sign of the divisor;
// Div is true division on floats only), so a code generator spells them out but never decides
// semantics. Nodes are immutable and shared; the make() functions check invariants and throw
// InternalError on a violation. ir::verify() re-checks a whole module.
#pragma once

#include "ir/type.h"
#include "support/source.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace smelt::ir {

struct Var {
    enum class Role : uint8_t { Param, Local, Hidden }; // Hidden: loop counters, bound range limits
    std::string name; // unique within its function; user names are kept as written
    Type type;
    Role role = Role::Local;
};
using VarPtr = std::shared_ptr<Var>;

enum class UnaryOp : uint8_t { Neg, BitNot, Not };
enum class BinaryOp : uint8_t {
    Add,
    Sub,
    Mul,
    Div,      // true division, float operands only
    FloorDiv, // Python //: rounds toward -inf (ints and floats)
    Mod,      // Python %: result has the sign of the divisor (ints and floats)
    Pow,      // float: pow(); integer: repeated multiplication, exponent >= 0
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge, // result bool
    And,
    Or, // short-circuit, bool operands, result bool
    Min,
    Max, // Python min/max of two: min(a, b) = b if b < a else a
};
enum class AtomicOp : uint8_t { Inc, Dec, Add };

enum class ExprKind : uint8_t {
    Const,  // int_value / float_value / bool
    VarRef, // var
    Cast,   // args[0] converted to type (C conversion; float→int truncates toward zero)
    Unary,  // unary_op args[0]
    Binary, // args[0] binary_op args[1]
    Select, // args[0] ? args[1] : args[2] (lazy, like Python's conditional expression)
    Load,   // var[args...]: pointer (one index) or matrix (one index per dimension)
    Call,   // callee(args...): a builtin (is_builtin), an external function (is_external:
            // callee is its C name) or a function of the module
    Atomic, // atomic_op on var[args[0]] (with args[1] for Add); returns the old value
};

struct Expr;
using ExprPtr = std::shared_ptr<const Expr>;

struct Expr {
    ExprKind kind;
    Type type;
    SourceLoc loc;
    int64_t int_value = 0;    // Const of integer/bool type (unsigned values stored bit-cast)
    double float_value = 0.0; // Const of float type
    VarPtr var;               // VarRef, Load, Atomic
    UnaryOp unary_op = UnaryOp::Neg;
    BinaryOp binary_op = BinaryOp::Add;
    AtomicOp atomic_op = AtomicOp::Add;
    std::string callee; // Call: builtin name as in the kernel language ("sin", "LID_0",
                        // "local_barrier", "abs", "isnan") or a module function's name
    bool is_builtin = false;
    bool is_external = false; // Call of an external function (Module::externals)
    std::vector<ExprPtr> args;

    // Constructors; each checks the node's invariants.
    static ExprPtr int_const(Type t, int64_t v, SourceLoc loc = {});
    static ExprPtr float_const(Type t, double v, SourceLoc loc = {});
    static ExprPtr bool_const(bool v, SourceLoc loc = {});
    static ExprPtr var_ref(VarPtr v, SourceLoc loc = {});
    static ExprPtr cast(Type t, ExprPtr e, SourceLoc loc = {});
    static ExprPtr unary(UnaryOp op, ExprPtr e, SourceLoc loc = {});
    static ExprPtr binary(BinaryOp op, ExprPtr a, ExprPtr b, SourceLoc loc = {});
    static ExprPtr select(ExprPtr c, ExprPtr a, ExprPtr b, SourceLoc loc = {});
    static ExprPtr load(VarPtr base, std::vector<ExprPtr> indices, SourceLoc loc = {});
    static ExprPtr call(std::string callee, bool is_builtin, Type result, std::vector<ExprPtr> args,
                        SourceLoc loc = {});
    // A call of the external function with C name `c_name`: arguments already converted to its
    // parameter types; neither a builtin nor a module function, and never assumed pure.
    static ExprPtr external_call(std::string c_name, Type result, std::vector<ExprPtr> args,
                                 SourceLoc loc = {});
    static ExprPtr atomic(AtomicOp op, VarPtr base, ExprPtr index, ExprPtr value,
                          SourceLoc loc = {});

    bool is_const() const { return kind == ExprKind::Const; }
};

enum class StmtKind : uint8_t {
    Assign, // var = value
    Store,  // var[indices...] = value (pointer or matrix element)
    If,     // if (cond) body else orelse
    While,  // while (cond) body
    For,    // for (var = start; step > 0 ? var < stop : var > stop; var += step) body
            // var is a Hidden counter; stop and step are Const or VarRef (evaluated once,
            // as Python's range does); the body starts by assigning the user's loop variable.
            // `labels`: the names ParPy's parpy.label('N') gave the loop (loop-parallel
            // functions map them to parallelism; every other consumer ignores them).
    Break,
    Continue,
    Return, // value may be null
    Eval,   // value evaluated for its effect (a call, an atomic)
};

struct Stmt;
using StmtPtr = std::shared_ptr<const Stmt>;
using Block = std::vector<StmtPtr>;

struct Stmt {
    StmtKind kind;
    SourceLoc loc;
    VarPtr var;                   // Assign, Store, For
    std::vector<ExprPtr> indices; // Store
    ExprPtr value;                // Assign, Store, Return (nullable), Eval
    ExprPtr cond;                 // If, While
    ExprPtr start, stop, step;    // For
    Block body;
    Block orelse;                    // If
    std::vector<std::string> labels; // For: parpy.label names, in source order

    static StmtPtr assign(VarPtr v, ExprPtr value, SourceLoc loc = {});
    static StmtPtr store(VarPtr base, std::vector<ExprPtr> indices, ExprPtr value,
                         SourceLoc loc = {});
    static StmtPtr if_(ExprPtr cond, Block body, Block orelse, SourceLoc loc = {});
    static StmtPtr while_(ExprPtr cond, Block body, SourceLoc loc = {});
    static StmtPtr for_(VarPtr counter, ExprPtr start, ExprPtr stop, ExprPtr step, Block body,
                        SourceLoc loc = {}, std::vector<std::string> labels = {});
    static StmtPtr break_(SourceLoc loc = {});
    static StmtPtr continue_(SourceLoc loc = {});
    static StmtPtr return_(ExprPtr value, SourceLoc loc = {});
    static StmtPtr eval(ExprPtr value, SourceLoc loc = {});
};

struct Function {
    std::string name;
    SourceLoc loc;
    std::vector<VarPtr> params;
    Type return_type;           // void when the function returns nothing
    std::vector<VarPtr> locals; // every local, declared once at the top of the function
    Block body;
    bool uses_local_memory = false; // declares a LOCAL_MEM matrix or has an lptr parameter
};

// An external function a module calls, as the code generator needs it for one backend.
struct ExternalDecl {
    std::string name;   // the kernel-language name (for messages and #line)
    std::string header; // "" or what #include names: my.h, <cmath>
    std::string code;   // source text pasted before the module's functions ("" for none)
};

struct Module {
    std::shared_ptr<const SourceFile> source;
    // The other files functions come from (kernel libraries): kept alive because SourceLocs
    // point at their files.
    std::vector<std::shared_ptr<const SourceFile>> other_files;
    // Callees before callers, so a C-family emitter needs no forward declarations.
    std::vector<std::shared_ptr<Function>> functions;
    // Set by passes/bounds_check: the code calls the prelude's smelt_checked_index.
    bool bounds_checked = false;
    // The external functions the functions call, in the order first called.
    std::vector<ExternalDecl> externals;
    const Function *find(const std::string &name) const;
};

} // namespace smelt::ir
