// ascasm header stub: simt_api/asc_fp16.h.  SIMT (scalar-thread) code is outside the vector front end;
// the header exists so that kernel files including it parse up to their SIMT code.
#pragma once
#include "kernel_operator.h"
