#include "common/hdf5_errors.h"

#if SMELT_APPS_HAVE_HDF5
#include <hdf5.h>
#endif

namespace smelt::apps {

void silence_hdf5_error_printing() {
#if SMELT_APPS_HAVE_HDF5
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
#endif
}

} // namespace smelt::apps
