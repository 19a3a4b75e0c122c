// ascasm header stub: adv_api/math/erfc.h, an advanced host-side API header (tensor-level operations on
// LocalTensors, declared in ascasm/host.h); it exists so that kernel files including it parse.
#pragma once
#include "kernel_operator.h"
