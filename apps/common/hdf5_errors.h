// HDF5 prints its internal error stack (dozens of lines) to stderr on every failed call, before
// the kit's own one-line message. The command line turns that printing off for the whole process;
// the writers' exceptions say what failed. A no-op in a build without HDF5.
#pragma once

namespace smelt::apps {

void silence_hdf5_error_printing();

} // namespace smelt::apps
