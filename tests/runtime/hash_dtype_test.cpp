// The content hash against XXH64's published values (checked with libxxhash 0.8.1), and the
// dtype tables against the C++ types and NumPy's names.
#include "array/dtype.h"
#include "support/error.h"
#include "support/hash.h"

#include <gtest/gtest.h>

#include <string>

namespace smelt {
namespace {

TEST(Hash, MatchesReferenceXxh64) {
    const std::string fox = "The quick brown fox jumps over the lazy dog";
    std::string bytes100;
    for (int i = 0; i < 100; ++i)
        bytes100 += static_cast<char>(i);
    EXPECT_EQ(xxh64("", 0, 0), 0xef46db3751d8e999ULL);
    EXPECT_EQ(xxh64("a", 1, 0), 0xd24ec4f1a98c6e5bULL);
    EXPECT_EQ(xxh64("abc", 3, 0), 0x44bc2cf5ad770999ULL);
    EXPECT_EQ(xxh64(fox.data(), fox.size(), 0), 0x0b242d361fda71bcULL);
    EXPECT_EQ(xxh64(bytes100.data(), 100, 0), 0x6ac1e58032166597ULL);
    const uint64_t seed = 0x9E3779B97F4A7C15ULL;
    EXPECT_EQ(xxh64("", 0, seed), 0xc4349fc93c010000ULL);
    EXPECT_EQ(xxh64(fox.data(), fox.size(), seed), 0x7cfac66832f66b74ULL);
    EXPECT_EQ(xxh64(bytes100.data(), 100, seed), 0x3b97d91eba03e785ULL);
}

TEST(Hash, HexIsBothSeedsAndFieldsAreDelimited) {
    EXPECT_EQ(hash_hex(""), "ef46db3751d8e999c4349fc93c010000");
    EXPECT_EQ(hash_hex("abc").size(), 32u);
    EXPECT_NE(Hasher().add("a", "bc").hex(), Hasher().add("ab", "c").hex());
    EXPECT_NE(Hasher().add("x", "1").add("y", "").hex(), Hasher().add("x", "").add("y", "1").hex());
    EXPECT_EQ(Hasher().add("x", "1").hex(), Hasher().add("x", "1").hex());
}

TEST(DType, SizesNamesAndTypesAgree) {
    EXPECT_EQ(dtype_size(dtype_of<int8_t>()), sizeof(int8_t));
    EXPECT_EQ(dtype_size(dtype_of<uint16_t>()), sizeof(uint16_t));
    EXPECT_EQ(dtype_size(dtype_of<int32_t>()), sizeof(int32_t));
    EXPECT_EQ(dtype_size(dtype_of<uint64_t>()), sizeof(uint64_t));
    EXPECT_EQ(dtype_size(dtype_of<float>()), sizeof(float));
    EXPECT_EQ(dtype_size(dtype_of<double>()), sizeof(double));
    for (DType t : kAllDTypes) {
        size_t visited = visit_dtype(t, []<class T>() { return sizeof(T); });
        EXPECT_EQ(visited, dtype_size(t)) << dtype_name(t);
        EXPECT_EQ(dtype_from_name(dtype_name(t)), t);
        EXPECT_EQ(dtype_from_format(std::string(1, dtype_format_char(t))), t);
        EXPECT_EQ(dtype_from_scalar(dtype_to_scalar(t)), t);
    }
    EXPECT_STREQ(dtype_name(DType::Float64), "float64");
    EXPECT_STREQ(dtype_name(DType::UInt32), "uint32");
    EXPECT_STREQ(dtype_c_name(DType::Int64), "int64_t");
    EXPECT_EQ(dtype_format_char(DType::Int32), 'i');
    EXPECT_EQ(dtype_format_char(DType::Float32), 'f');
}

TEST(DType, KernelNamesFormatsAndErrors) {
    EXPECT_EQ(dtype_from_name("double"), DType::Float64);
    EXPECT_EQ(dtype_from_name("int"), DType::Int32);
    EXPECT_EQ(dtype_from_name("ulong"), DType::UInt64);
    EXPECT_EQ(dtype_from_name("float_"), DType::Float64);
    EXPECT_EQ(dtype_to_scalar(DType::Int32), Scalar::I32);
    EXPECT_EQ(dtype_to_scalar(DType::Float32), Scalar::F32);
    EXPECT_EQ(dtype_from_format("<d"), DType::Float64);
    EXPECT_EQ(dtype_from_format("l"), DType::Int64);
    EXPECT_FALSE(dtype_from_format(">i").has_value());
    EXPECT_FALSE(dtype_from_format("?").has_value());
    EXPECT_THROW(dtype_from_scalar(Scalar::Bool), UsageError);
    try {
        dtype_from_name("complex128");
        FAIL() << "expected UsageError";
    } catch (const UsageError &e) {
        EXPECT_NE(std::string(e.what()).find("complex128"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("float64"), std::string::npos);
    }
    EXPECT_TRUE(dtype_is_signed(DType::Float32));
    EXPECT_FALSE(dtype_is_signed(DType::UInt8));
    EXPECT_TRUE(dtype_is_float(DType::Float64));
    EXPECT_FALSE(dtype_is_float(DType::Int64));
}

} // namespace
} // namespace smelt
