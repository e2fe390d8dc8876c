// Pieces shared by the GPU-layout wrappers (gpu_wrappers.h): the kernel head, the tile
// declarations and group range, the coalesced tile load and the per-work-item ordered fold.
#include "primitives/opencl/gpu_wrappers.h"

namespace smelt::primitives::opencl {

namespace {

const std::string W = std::to_string(kGpuGroupSize);

} // namespace

std::string gpu_kernel_head(const codegen::Dialect &d, const std::string &name,
                            const std::vector<EntryParam> &params, const std::string &extra,
                            CallVars &vars) {
    std::string head = kernel_head(d, name, params, extra, vars);
    const std::string plain = d.entry_qualifier + " void ";
    return d.entry_qualifier + " __attribute__((reqd_work_group_size(" + W + ", 1, 1))) void " +
           head.substr(plain.size());
}

std::string gpu_pad_function(Scalar s) {
    const std::string shift = scalar_bits(s) > 32 ? "4" : "5";
    return "/* Tile slot of item j: one spare slot every 2^" + shift +
           " items, so work-items reading consecutive runs hit different banks. */\n"
           "SMELT_INLINE uint smelt_pad(uint j) { return j + (j >> " +
           shift + "); }\n";
}

std::string gpu_tile_setup(const std::string &T, size_t items, bool flags) {
    const size_t tile = kGpuGroupSize * items;
    const std::string TILE = std::to_string(tile);
    std::string out;
    out += "    __local " + T + " smelt_tile[" + std::to_string(tile + tile / 16 + 1) + "];\n";
    if (flags) out += "    __local uchar smelt_sf[" + TILE + "];\n";
    out += "    __local " + T + " smelt_lv[" + W + "];\n";
    out += "    __local uchar smelt_lf[" + W + "];\n";
    out += "    const uint smelt_l = (uint)get_local_id(0);\n";
    out += "    const long smelt_groups = (long)get_num_groups(0);\n";
    out += "    const long smelt_per = ((smelt_n + " + TILE + " - 1) / " + TILE +
           " + smelt_groups - 1) / smelt_groups * " + TILE + ";\n";
    out += "    const long smelt_lo = min((long)get_group_id(0) * smelt_per, smelt_n);\n";
    out += "    const long smelt_hi = min(smelt_lo + smelt_per, smelt_n);\n";
    return out;
}

namespace {

// Evaluates the items of the tile at BASE owned by this work-item (k * W + l, k < K) into
// smelt_v[] (and their start flags into smelt_f[]). All of them are evaluated before any is
// used, so their loads are in flight together; full tiles skip the bound checks, so nothing
// holds the loads back.
std::string evaluate_tile(const std::string &base, size_t items, const std::string &value,
                          const std::string &start) {
    const std::string K = std::to_string(items), TILE = std::to_string(kGpuGroupSize * items);
    auto evaluate = [&](const std::string &indent) {
        std::string e = indent + "smelt_v[smelt_k] = " + value + ";\n";
        if (!start.empty()) e += indent + "smelt_f[smelt_k] = (uchar)(" + start + ");\n";
        return e;
    };
    std::string out;
    out += "        {\n";
    out += "            const long smelt_at = " + base + ";\n";
    out += "            if (smelt_hi - smelt_at >= " + TILE + ") {\n";
    out += "#pragma unroll\n";
    out += "                for (uint smelt_k = 0; smelt_k < " + K + "u; ++smelt_k) {\n";
    out += "                    const long smelt_i = smelt_at + smelt_k * " + W + "u + smelt_l;\n";
    out += evaluate("                    ");
    out += "                }\n";
    out += "            } else {\n";
    out += "#pragma unroll\n";
    out += "                for (uint smelt_k = 0; smelt_k < " + K + "u; ++smelt_k) {\n";
    out += "                    const long smelt_i = smelt_at + smelt_k * " + W + "u + smelt_l;\n";
    out += "                    if (smelt_i < smelt_hi) {\n";
    out += evaluate("                        ");
    out += "                    }\n";
    out += "                }\n";
    out += "            }\n";
    out += "        }\n";
    return out;
}

} // namespace

std::string gpu_tile_loop(const std::string &T, size_t items, const std::string &value,
                          const std::string &start) {
    const std::string K = std::to_string(items), TILE = std::to_string(kGpuGroupSize * items);
    const bool flags = !start.empty();
    std::string out;
    out += "    " + T + " smelt_v[" + K + "];\n";
    if (flags) out += "    uchar smelt_f[" + K + "];\n";
    out += "    if (smelt_lo < smelt_hi)\n";
    out += evaluate_tile("smelt_lo", items, value, start);
    out += "    for (long smelt_base = smelt_lo; smelt_base < smelt_hi; smelt_base += " + TILE +
           ") {\n";
    out +=
        "        const uint smelt_valid = (uint)min(smelt_hi - smelt_base, (long)" + TILE + ");\n";
    out += "#pragma unroll\n";
    out += "        for (uint smelt_k = 0; smelt_k < " + K + "u; ++smelt_k) {\n";
    out += "            const uint smelt_j = smelt_k * " + W + "u + smelt_l;\n";
    out += "            if (smelt_j < smelt_valid) {\n";
    out += "                smelt_tile[smelt_pad(smelt_j)] = smelt_v[smelt_k];\n";
    if (flags) out += "                smelt_sf[smelt_j] = smelt_f[smelt_k];\n";
    out += "            }\n";
    out += "        }\n";
    out += "        barrier(CLK_LOCAL_MEM_FENCE);\n";
    // The next tile's loads, in flight while this one is folded.
    out += "        if (smelt_base + " + TILE + " < smelt_hi)\n";
    out += evaluate_tile("smelt_base + " + TILE, items, value, start);
    return out;
}

std::string gpu_fold(const std::string &T, size_t items, const std::string &combine,
                     const std::string &start) {
    const std::string K = std::to_string(items);
    std::string out;
    out += "        " + T + " smelt_acc = smelt_neutral;\n";
    out += "        uchar smelt_fl = 0;\n";
    out += "#pragma unroll\n";
    out += "        for (uint smelt_k = 0; smelt_k < " + K + "u; ++smelt_k) {\n";
    out += "            const uint smelt_j = smelt_l * " + K + "u + smelt_k;\n";
    out += "            if (smelt_j < smelt_valid) {\n";
    out += "                const " + T + " smelt_x = smelt_tile[smelt_pad(smelt_j)];\n";
    if (start.empty()) { // no segments: only "holds a value"
        out += "                smelt_acc = smelt_fl == 0 ? smelt_x : " + combine +
               "(smelt_acc, smelt_x);\n";
        out += "                smelt_fl = 2;\n";
    } else {
        out += "                const uchar smelt_st = (uchar)(" + start + ");\n";
        out += "                smelt_acc = (smelt_fl == 0 || smelt_st) ? smelt_x : " + combine +
               "(smelt_acc, smelt_x);\n";
        out += "                smelt_fl |= (uchar)(2 | smelt_st);\n";
    }
    out += "            }\n";
    out += "        }\n";
    out += "        smelt_lv[smelt_l] = smelt_acc;\n";
    out += "        smelt_lf[smelt_l] = smelt_fl;\n";
    out += "        barrier(CLK_LOCAL_MEM_FENCE);\n";
    return out;
}

std::string gpu_group_total(const std::string &T, size_t items, const std::string &combine,
                            const std::string &value, const std::string &load_start,
                            const std::string &fold_start) {
    std::string out;
    out += "    " + T + " smelt_carry = smelt_neutral;\n";
    out += "    uchar smelt_cf = 0;\n";
    out += gpu_tile_loop(T, items, value, load_start);
    out += gpu_fold(T, items, combine, fold_start);
    out += local_tree("        ");
    out += "        if (smelt_l == 0) {\n";
    out +=
        "            smelt_carry = smelt_join(smelt_carry, smelt_cf, smelt_lv[0], smelt_lf[0]);\n";
    out += "            smelt_cf = smelt_join_flags(smelt_cf, smelt_lf[0]);\n";
    out += "        }\n";
    out += "    }\n";
    out += "    if (smelt_l == 0) {\n";
    out += "        smelt_gv[get_group_id(0)] = smelt_carry;\n";
    out += "        smelt_gf[get_group_id(0)] = smelt_cf;\n";
    out += "    }\n";
    out += "}\n\n";
    return out;
}

} // namespace smelt::primitives::opencl
