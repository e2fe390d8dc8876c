// One output frame: named per-particle fields in host memory, from which both the H5MD datasets
// (/particles/all/<name>) and the VTK point data are written. A field holds one array of n
// values per component (structure of arrays, as the apps keep their state): real (position,
// velocity, force, ...) or integer (species, image, ...). The field named "position" is the H5MD
// `position` and the VTK points; `spatial` fields have one component per box axis and are padded
// to 3 components (z = 0) in VTK, as ParaView's vectors need.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace smelt::apps {

// The unit system of an app's H5MD output (the H5MD units module): the system's name and the
// unit strings of lengths (box edges) and times; field and observable units come with them
// (Field::unit, ObservableColumn::unit). An empty system writes no unit attributes.
struct H5mdUnits {
    std::string system, length, time;
    // Reduced Lennard-Jones units: lengths in sigma, energies in epsilon, times in tau.
    static H5mdUnits lennard_jones() { return {"LJ", "sigma", "tau"}; }
};

struct Field {
    std::string name;
    std::vector<std::vector<double>> real;     // components x n, or empty for an integer field
    std::vector<std::vector<int64_t>> integer; // components x n, or empty for a real field
    bool spatial = false;                      // one component per box axis
    std::string unit; // H5MD unit string ("sigma tau-1"), "" = none (dimensionless, or no system)

    // A per-axis real field ("position", "velocity", "force"): one array per axis.
    static Field vector(std::string name, std::vector<std::vector<double>> axes);
    // A real field with any number of components (not padded in VTK).
    static Field reals(std::string name, std::vector<std::vector<double>> components);
    // An integer field ("species", "image": one array per component).
    static Field integers(std::string name, std::vector<std::vector<int64_t>> components);

    // The same field with its H5MD unit: Field::vector("velocity", v).with_unit("sigma tau-1").
    Field with_unit(std::string u) && {
        unit = std::move(u);
        return std::move(*this);
    }

    bool is_integer() const { return !integer.empty(); }
    int components() const { return int(is_integer() ? integer.size() : real.size()); }
    // Values per component (0 for an empty field).
    size_t size() const;
};

struct FrameData {
    int64_t step = 0;
    double time = 0.0;
    std::vector<Field> fields;
    std::vector<double> box_edges; // the box at this frame (dim entries); empty: the writer's own

    // The field of that name, or null.
    const Field *find(const std::string &name) const;
};

// std::invalid_argument naming the field unless every field has components of n values each,
// a name that is a plain identifier, and is either real or integer; a "position" field is
// required and must be spatial with `dim` components.
void check_frame(const FrameData &frame, int64_t n, int dim, const std::string &who);

} // namespace smelt::apps
