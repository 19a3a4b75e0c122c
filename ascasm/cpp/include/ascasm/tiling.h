// ascasm header stub: the tiling-struct side of kernel_tiling/kernel_tiling.h.  Real kernels name
// many generated tiling structs; those an op defines in its own headers parse as they are, and
// GET_TILING_DATA gives a struct whose every member read is accepted.
#pragma once
#include "ascasm/base.h"
struct __ascasm_tiling_data {
    // Any member name used on it must be declared; unknown ones are reported by the parser.
};
