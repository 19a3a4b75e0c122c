// ascasm header stub: the C API's entry header (asc_* kernels include it); the same declarations as kernel_operator.h.
#pragma once
#include "kernel_operator.h"
