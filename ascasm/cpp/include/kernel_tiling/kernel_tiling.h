// ascasm header stub: kernel_tiling/kernel_tiling.h (see ascasm/tiling.h).
#pragma once
#include "ascasm/tiling.h"
