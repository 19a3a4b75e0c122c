// ascasm header stub: the entry header Ascend C kernels include.  Everything it declares is a
// declaration for parsing with libclang (see docs/frontend.md); nothing here runs.
#pragma once
#include "ascasm/base.h"
#include "ascasm/reg_types.h"
#include "ascasm/reg_api.h"
#include "ascasm/c_api.h"
#include "ascasm/host.h"
