// A host tiling header in the shape of the public operators': the tiling struct's definitions among
// host code ascasm's stubs do not stand in for (the bed keeps the definitions alone).
#include "register/tilingdata_base.h"
#include "exe_graph/runtime/tiling_context.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(FillTilingData)
TILING_DATA_FIELD_DEF(int64_t, count);
TILING_DATA_FIELD_DEF(float, value);
TILING_DATA_FIELD_DEF_ARR(int32_t, 2, pair);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Fill, FillTilingData);

class FillTiling : public TilingBaseClass {
    ge::graphStatus DoOpTiling() override;
};
}  // namespace optiling
