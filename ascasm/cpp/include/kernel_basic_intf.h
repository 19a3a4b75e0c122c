// ascasm header stub: another entry header kernels include; the same declarations as kernel_operator.h.
#pragma once
#include "kernel_operator.h"
