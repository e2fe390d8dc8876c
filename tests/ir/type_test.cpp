// Type names, spellings and the promotion table.
#include "ir/type.h"

#include <gtest/gtest.h>

using namespace smelt;

namespace {

const Scalar kAll[] = {Scalar::Bool, Scalar::I8,  Scalar::U8,  Scalar::I16,
                       Scalar::U16,  Scalar::I32, Scalar::U32, Scalar::I64,
                       Scalar::U64,  Scalar::F32, Scalar::F64};

TEST(Type, ScalarNamesParseAndPrint) {
    const std::pair<const char *, Scalar> names[] = {
        {"bool", Scalar::Bool}, {"char", Scalar::I8},    {"uchar", Scalar::U8},
        {"short", Scalar::I16}, {"ushort", Scalar::U16}, {"int", Scalar::I32},
        {"uint", Scalar::U32},  {"long", Scalar::I64},   {"ulong", Scalar::U64},
        {"float", Scalar::F32}, {"double", Scalar::F64}};
    for (auto [name, s] : names) {
        auto t = parse_type_name(name);
        ASSERT_TRUE(t) << name;
        EXPECT_EQ(*t, Type::scalar(s));
        EXPECT_EQ(t->str(), name);
        // Compyle's aliases that do not shadow Python's builtins.
        auto alias = parse_type_name(std::string(name) + "_");
        ASSERT_TRUE(alias) << name;
        EXPECT_EQ(*alias, Type::scalar(s));
    }
    EXPECT_FALSE(parse_type_name("integer"));
    EXPECT_FALSE(parse_type_name("int__"));
    EXPECT_FALSE(parse_type_name(""));
}

TEST(Type, PointerNames) {
    EXPECT_EQ(*parse_type_name("intp"), Type::pointer(Scalar::I32));
    EXPECT_EQ(*parse_type_name("gdoublep"), Type::pointer(Scalar::F64, AddrSpace::Global));
    EXPECT_EQ(*parse_type_name("lfloatp"), Type::pointer(Scalar::F32, AddrSpace::Local));
    EXPECT_EQ(*parse_type_name("ulongp"), Type::pointer(Scalar::U64));
    // "longp" is a long pointer, "llongp" a local one, "glongp" a global one.
    EXPECT_EQ(*parse_type_name("longp"), Type::pointer(Scalar::I64));
    EXPECT_EQ(*parse_type_name("llongp"), Type::pointer(Scalar::I64, AddrSpace::Local));
    EXPECT_EQ(*parse_type_name("glongp"), Type::pointer(Scalar::I64));
    EXPECT_EQ(*parse_type_name("guintp"), Type::pointer(Scalar::U32));
    EXPECT_FALSE(parse_type_name("p"));
    EXPECT_FALSE(parse_type_name("xintp"));
    EXPECT_FALSE(parse_type_name("intpp"));
    EXPECT_FALSE(parse_type_name("boolp"));

    EXPECT_EQ(Type::pointer(Scalar::F64).str(), "doublep");
    EXPECT_EQ(Type::pointer(Scalar::F64, AddrSpace::Local).str(), "ldoublep");
    for (Scalar s : kAll) {
        if (s == Scalar::Bool) continue;
        for (AddrSpace sp : {AddrSpace::Global, AddrSpace::Local}) {
            Type t = Type::pointer(s, sp);
            EXPECT_EQ(*parse_type_name(t.str()), t) << t.str();
        }
    }
}

TEST(Type, MatrixAndVoidSpelling) {
    EXPECT_EQ(Type::matrix(Scalar::I32, {2, 3}).str(), "matrix((2, 3), 'int')");
    EXPECT_EQ(Type::matrix(Scalar::F64, {3}).str(), "matrix(3)");
    EXPECT_EQ(Type::matrix(Scalar::I32, {4}).str(), "matrix((4,), 'int')");
    EXPECT_EQ(Type::matrix(Scalar::F64, {128}, AddrSpace::Local).str(), "LOCAL_MEM matrix(128)");
    EXPECT_EQ(Type::void_().str(), "void");
}

TEST(Type, Predicates) {
    EXPECT_FALSE(Type::scalar(Scalar::Bool).is_integer());
    EXPECT_TRUE(Type::scalar(Scalar::Bool).is_bool());
    EXPECT_TRUE(Type::scalar(Scalar::U8).is_integer());
    EXPECT_TRUE(Type::scalar(Scalar::F32).is_float());
    EXPECT_FALSE(Type::pointer(Scalar::F32).is_float());
    EXPECT_EQ(scalar_bits(Scalar::I16), 16);
    EXPECT_EQ(scalar_bits(Scalar::U64), 64);
    EXPECT_TRUE(scalar_is_signed(Scalar::I8));
    EXPECT_FALSE(scalar_is_signed(Scalar::U32));
    EXPECT_NE(Type::pointer(Scalar::F64), Type::pointer(Scalar::F64, AddrSpace::Local));
}

// Independent oracle: the type C++ itself gives to a + b.
template <class A, class B> Scalar cxx_promote() {
    using R = decltype(A() + B());
    if (std::is_same_v<R, double>) return Scalar::F64;
    if (std::is_same_v<R, float>) return Scalar::F32;
    if (std::is_same_v<R, int>) return Scalar::I32;
    if (std::is_same_v<R, unsigned>) return Scalar::U32;
    if (std::is_same_v<R, long>) return Scalar::I64;
    if (std::is_same_v<R, unsigned long>) return Scalar::U64;
    return Scalar::Bool; // not reached for the types below
}

template <class A> void check_row(Scalar a) {
    EXPECT_EQ(promote(a, Scalar::Bool), (cxx_promote<A, bool>()));
    EXPECT_EQ(promote(a, Scalar::I8), (cxx_promote<A, int8_t>()));
    EXPECT_EQ(promote(a, Scalar::U8), (cxx_promote<A, uint8_t>()));
    EXPECT_EQ(promote(a, Scalar::I16), (cxx_promote<A, int16_t>()));
    EXPECT_EQ(promote(a, Scalar::U16), (cxx_promote<A, uint16_t>()));
    EXPECT_EQ(promote(a, Scalar::I32), (cxx_promote<A, int32_t>()));
    EXPECT_EQ(promote(a, Scalar::U32), (cxx_promote<A, uint32_t>()));
    EXPECT_EQ(promote(a, Scalar::I64), (cxx_promote<A, long>()));
    EXPECT_EQ(promote(a, Scalar::U64), (cxx_promote<A, unsigned long>()));
    EXPECT_EQ(promote(a, Scalar::F32), (cxx_promote<A, float>()));
    EXPECT_EQ(promote(a, Scalar::F64), (cxx_promote<A, double>()));
}

TEST(Type, PromoteMatchesCxx) {
    static_assert(sizeof(long) == 8, "the oracle assumes LP64");
    check_row<bool>(Scalar::Bool);
    check_row<int8_t>(Scalar::I8);
    check_row<uint8_t>(Scalar::U8);
    check_row<int16_t>(Scalar::I16);
    check_row<uint16_t>(Scalar::U16);
    check_row<int32_t>(Scalar::I32);
    check_row<uint32_t>(Scalar::U32);
    check_row<long>(Scalar::I64);
    check_row<unsigned long>(Scalar::U64);
    check_row<float>(Scalar::F32);
    check_row<double>(Scalar::F64);
}

TEST(Type, DemoteToSingle) {
    EXPECT_EQ(demote_to_single(Type::scalar(Scalar::F64)), Type::scalar(Scalar::F32));
    EXPECT_EQ(demote_to_single(Type::pointer(Scalar::F64, AddrSpace::Local)),
              Type::pointer(Scalar::F32, AddrSpace::Local));
    EXPECT_EQ(demote_to_single(Type::matrix(Scalar::F64, {2, 2})),
              Type::matrix(Scalar::F32, {2, 2}));
    EXPECT_EQ(demote_to_single(Type::scalar(Scalar::I64)), Type::scalar(Scalar::I64));
    EXPECT_EQ(demote_to_single(Type::void_()), Type::void_());
}

} // namespace
