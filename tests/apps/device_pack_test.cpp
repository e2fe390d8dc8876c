// DevicePack's messages of several fields (apps/common/domain/device_pack.h), which migration and
// the halo build send: append_fields against the same bytes packed by hand on the host (a
// float64 column, an int32 column, a packed head before them), and place_fields putting them
// back at an offset with the elements around left alone; the same message kept on the device
// (pack_fields / place_fields from a device array, what travels through NCCL) and gather_into a
// longer array. On the cpu backend, and on OpenCL (PoCL in CI) where there is a device.
#include "app_test_util.h"
#include "common/domain/device_pack.h"
#include "md3d_test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace {

using smelt::Array;
using smelt::apps::domain::DevicePack;
using smelt::apps::domain::halo_kernel_file;
using smelt::apps::test_util::md3d_physics;

template <class T> void append_host(std::vector<char> &out, const std::vector<T> &v) {
    const size_t at = out.size();
    out.resize(at + v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(out.data() + at, v.data(), v.size() * sizeof(T));
}

void round_trip(const std::string &backend) {
    smelt::Options options;
    options.backend = backend;
    const smelt::Program halo = smelt::Program::from_file(halo_kernel_file(md3d_physics().name()));
    DevicePack pack(halo, options);
    smelt::Backend &b = pack.backend();
    const std::vector<double> x = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
    const std::vector<int32_t> id = {10, 11, 12, 13, 14, 15, 16};
    const std::vector<double> head = {-1.0, -2.0, -3.0, -4.0};
    Array xa = Array::from_vector(x, &b), ida = Array::from_vector(id, &b);
    Array heada = Array::from_vector(head, &b);
    const Array list = Array::from_vector(std::vector<int32_t>{5, 0, 3}, &b);

    std::vector<char> sent(3, 'p'); // appended to, after what the vector holds
    smelt::Array *fields[] = {&xa, &ida};
    pack.append_fields(fields, list, sent, &heada, 2);
    std::vector<char> expected(3, 'p');
    append_host(expected, std::vector<double>{-1.0, -2.0});
    append_host(expected, std::vector<double>{5.5, 0.5, 3.5});
    append_host(expected, std::vector<int32_t>{15, 10, 13});
    EXPECT_EQ(sent, expected);

    // Back into arrays of 6 at offset 2: the two fields without the head.
    Array xb = Array::from_vector(std::vector<double>(6, 9.0), &b);
    Array idb = Array::from_vector(std::vector<int32_t>(6, 99), &b);
    smelt::Array *into[] = {&xb, &idb};
    std::vector<char> message(expected.begin() + 3 + 2 * sizeof(double), expected.end());
    pack.place_fields(message.data(), 3, into, 2);
    EXPECT_EQ(xb.to_vector<double>(), (std::vector<double>{9.0, 9.0, 5.5, 0.5, 3.5, 9.0}));
    EXPECT_EQ(idb.to_vector<int32_t>(), (std::vector<int32_t>{99, 99, 15, 10, 13, 99}));

    // An empty list sends nothing but the head, and places nothing.
    std::vector<char> only_head;
    pack.append_fields(fields, Array(smelt::DType::Int32, 0, &b), only_head, &heada, 4);
    std::vector<char> head_bytes;
    append_host(head_bytes, head);
    EXPECT_EQ(only_head, head_bytes);
    pack.place_fields(nullptr, 0, into, 6);
    EXPECT_EQ(idb.to_vector<int32_t>(), (std::vector<int32_t>{99, 99, 15, 10, 13, 99}));
    // Past an array's end is refused.
    EXPECT_THROW(pack.place_fields(message.data(), 3, into, 4), std::logic_error);

    // The same message on the device: the same bytes, placed by device copies.
    Array on_device;
    const size_t bytes = pack.pack_fields(fields, list, on_device, &heada, 2);
    ASSERT_EQ(bytes, expected.size() - 3);
    EXPECT_EQ(on_device.dtype(), smelt::DType::UInt8);
    ASSERT_GE(on_device.size(), bytes);
    std::vector<char> read_back(bytes);
    b.read(on_device.buffer(), 0, read_back.data(), bytes);
    EXPECT_TRUE(std::equal(read_back.begin(), read_back.end(), expected.begin() + 3));
    Array fields_only;
    ASSERT_EQ(pack.pack_fields(fields, list, fields_only), message.size());
    Array xc = Array::from_vector(std::vector<double>(5, 7.0), &b);
    Array idc = Array::from_vector(std::vector<int32_t>(5, 77), &b);
    smelt::Array *into_c[] = {&xc, &idc};
    pack.place_fields(fields_only, 3, into_c, 1);
    EXPECT_EQ(xc.to_vector<double>(), (std::vector<double>{7.0, 5.5, 0.5, 3.5, 7.0}));
    EXPECT_EQ(idc.to_vector<int32_t>(), (std::vector<int32_t>{77, 15, 10, 13, 77}));
    EXPECT_THROW(pack.place_fields(fields_only, 3, into_c, 3), std::logic_error);

    // gather_into a longer array: the list's elements first, the rest untouched; a shorter one
    // is refused.
    Array longer = Array::from_vector(std::vector<int32_t>(5, -1), &b);
    pack.gather_into(ida, list, longer);
    EXPECT_EQ(longer.to_vector<int32_t>(), (std::vector<int32_t>{15, 10, 13, -1, -1}));
    Array shorter(smelt::DType::Int32, 2, &b);
    EXPECT_THROW(pack.gather_into(ida, list, shorter), std::logic_error);
}

TEST(DevicePack, FieldsTravelInOneMessageAndComeBackInPlace) {
    round_trip("cpu");
}

TEST(OpenCLDevicePack, FieldsTravelInOneMessageAndComeBackInPlace) {
    if (!smelt::apps::test_util::opencl_available())
        GTEST_SKIP() << "no OpenCL device on this machine";
    round_trip("opencl");
}

} // namespace
